/**
 * The `patch` GitHub lists for a changed file: git's unified diff without the file headers,
 * three lines of context, hunks closer than that merged, "\ No newline at end of file" where a
 * side lacks its last newline. Like GitHub, no patch for a diff too large to compute here.
 */

const CONTEXT = 3;
/** Changed-region size (lines before × lines after) above which no patch is given. */
const MAX_CELLS = 4_000_000;

interface Line {
  text: string;
  /** The side's last line, with no newline after it. */
  noNewline: boolean;
}

type Op = { op: ' ' | '-' | '+'; line: Line };

export function unifiedPatch(before: string | undefined, after: string | undefined): string | undefined {
  const a = lines(before ?? '');
  const b = lines(after ?? '');
  const ops = diff(a, b);
  if (ops === null) return undefined;
  return render(ops).join('\n');
}

function lines(text: string): Line[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const newline = parts.at(-1) === '';
  if (newline) parts.pop();
  return parts.map((t, i) => ({ text: t, noNewline: !newline && i === parts.length - 1 }));
}

const same = (x: Line, y: Line) => x.text === y.text && x.noNewline === y.noNewline;

/** Longest common subsequence over the region between the common prefix and suffix. */
function diff(a: Line[], b: Line[]): Op[] | null {
  let pre = 0;
  while (pre < a.length && pre < b.length && same(a[pre] as Line, b[pre] as Line)) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && same(a[a.length - 1 - suf] as Line, b[b.length - 1 - suf] as Line)) suf++;
  const x = a.slice(pre, a.length - suf);
  const y = b.slice(pre, b.length - suf);
  if (x.length * y.length > MAX_CELLS) return null;
  const n = x.length;
  const m = y.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i] as Uint32Array;
    const next = lcs[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) {
      row[j] = same(x[i] as Line, y[j] as Line) ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = a.slice(0, pre).map((line) => ({ op: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(x[i] as Line, y[j] as Line)) {
      ops.push({ op: ' ', line: x[i++] as Line });
      j++;
    } else if (j < m && (i === n || (lcs[i]?.[j + 1] as number) >= (lcs[i + 1]?.[j] as number))) {
      ops.push({ op: '+', line: y[j++] as Line });
    } else {
      ops.push({ op: '-', line: x[i++] as Line });
    }
  }
  ops.push(...a.slice(a.length - suf).map((line): Op => ({ op: ' ', line })));
  // git lists a run's removals before its additions.
  return reorderRuns(ops);
}

function reorderRuns(ops: Op[]): Op[] {
  const out: Op[] = [];
  let run: Op[] = [];
  const flush = () => {
    out.push(...run.filter((o) => o.op === '-'), ...run.filter((o) => o.op === '+'));
    run = [];
  };
  for (const o of ops) {
    if (o.op === ' ') {
      flush();
      out.push(o);
    } else run.push(o);
  }
  flush();
  return out;
}

function render(ops: Op[]): string[] {
  const changed = ops.flatMap((o, i) => (o.op === ' ' ? [] : [i]));
  const out: string[] = [];
  // Old and new line numbers before each op.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 0;
  let n = 0;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(n);
    if (op.op !== '+') o++;
    if (op.op !== '-') n++;
  }
  let k = 0;
  while (k < changed.length) {
    const startChange = changed[k] as number;
    let endChange = startChange;
    while (k + 1 < changed.length && (changed[k + 1] as number) - endChange - 1 <= 2 * CONTEXT) endChange = changed[++k] as number;
    k++;
    const from = Math.max(0, startChange - CONTEXT);
    const to = Math.min(ops.length, endChange + 1 + CONTEXT);
    const body = ops.slice(from, to);
    const oldCount = body.filter((x) => x.op !== '+').length;
    const newCount = body.filter((x) => x.op !== '-').length;
    const oldStart = oldCount === 0 ? (oldAt[from] as number) : (oldAt[from] as number) + 1;
    const newStart = newCount === 0 ? (newAt[from] as number) : (newAt[from] as number) + 1;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const x of body) {
      out.push(`${x.op}${x.line.text}`);
      if (x.line.noNewline) out.push('\\ No newline at end of file');
    }
  }
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}
