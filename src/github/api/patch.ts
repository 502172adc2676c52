/**
 * The text before a change, rebuilt from the text after it and the change's unified diff (the
 * `patch` GitHub lists for each file of a pull request). Every context and added line of the
 * diff is checked against the text after: anything that does not line up gives null, never a
 * guess.
 */
export function textBefore(after: string, patch: string): string | null {
  const head = splitLines(after);
  const hunks = parseHunks(patch);
  if (hunks === null) return null;
  const base: string[] = [];
  let cursor = 0;
  let baseEndsWithNewline = head.endsWithNewline;
  for (const hunk of hunks) {
    // A hunk adding or removing all its lines names the line before it (0: the file's start).
    const firstNew = hunk.newCount === 0 ? hunk.newStart : hunk.newStart - 1;
    const firstOld = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (firstNew < cursor || firstNew > head.lines.length) return null;
    base.push(...head.lines.slice(cursor, firstNew));
    cursor = firstNew;
    if (base.length !== firstOld) return null;
    for (const line of hunk.lines) {
      if (line.op !== '-') {
        if (head.lines[cursor] !== line.text) return null;
        cursor += 1;
      }
      if (line.op !== '+') base.push(line.text);
    }
    const atEnd = cursor === head.lines.length;
    const last = hunk.lines.at(-1);
    // "\ No newline at end of file" follows the line it speaks of; it can only be a last line.
    if (last?.noNewline && !atEnd) return null;
    if (atEnd) {
      const headNoNewline = hunk.lines.some((l) => l.noNewline && l.op !== '-');
      if (head.lines.length > 0 && headNoNewline === head.endsWithNewline) return null;
      baseEndsWithNewline = !hunk.lines.some((l) => l.noNewline && l.op !== '+');
    }
  }
  base.push(...head.lines.slice(cursor));
  if (base.length === 0) return '';
  return base.join('\n') + (baseEndsWithNewline ? '\n' : '');
}

/**
 * The lines of the text after a change that its unified diff shows (context and added lines),
 * one per line; null when the diff does not parse.
 */
export function shownAfter(patch: string): string | null {
  const hunks = parseHunks(patch);
  if (hunks === null) return null;
  return hunks.flatMap((h) => h.lines.filter((l) => l.op !== '-').map((l) => l.text)).join('\n');
}

interface PatchLine {
  op: ' ' | '-' | '+';
  text: string;
  /** Followed by "\ No newline at end of file". */
  noNewline: boolean;
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: PatchLine[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function parseHunks(patch: string): Hunk[] | null {
  const rows = patch.split('\n');
  if (rows.at(-1) === '') rows.pop();
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < rows.length) {
    const header = HUNK_HEADER.exec(rows[i] ?? '');
    if (!header) return null;
    const hunk: Hunk = {
      oldStart: Number(header[1]),
      oldCount: header[2] === undefined ? 1 : Number(header[2]),
      newStart: Number(header[3]),
      newCount: header[4] === undefined ? 1 : Number(header[4]),
      lines: [],
    };
    i += 1;
    let olds = 0;
    let news = 0;
    while (olds < hunk.oldCount || news < hunk.newCount) {
      const row = rows[i];
      if (row === undefined) return null;
      i += 1;
      if (row.startsWith('\\')) {
        const prev = hunk.lines.at(-1);
        if (!prev) return null;
        prev.noNewline = true;
        continue;
      }
      // Some tools trim the lone space of an empty context line.
      const op = row === '' ? ' ' : row[0];
      if (op !== ' ' && op !== '-' && op !== '+') return null;
      hunk.lines.push({ op, text: row.slice(1), noNewline: false });
      if (op !== '+') olds += 1;
      if (op !== '-') news += 1;
    }
    if (olds !== hunk.oldCount || news !== hunk.newCount) return null;
    if (rows[i]?.startsWith('\\')) {
      const prev = hunk.lines.at(-1);
      if (prev) prev.noNewline = true;
      i += 1;
    }
    const previous = hunks.at(-1);
    if (previous && hunk.newStart < previous.newStart + previous.newCount) return null;
    hunks.push(hunk);
  }
  return hunks;
}

function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === '') return { lines: [], endsWithNewline: true };
  const lines = text.split('\n');
  const endsWithNewline = lines.at(-1) === '';
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}
