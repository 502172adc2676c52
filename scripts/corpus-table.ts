/**
 * Prints what gpu-justify detects in every file of a corpus directory (default test/corpus),
 * one row per declaration or diagnostic: `npm run detect:corpus [-- <dir>]`.
 * With `--cases`: the pull-request cases on real files (test/detect/real-cases.ts), one row per
 * case, and how many ended right, not followed with a warning, as a silent miss or a wrong count,
 * and how many negative controls ended as anything but "no change" (false alarms).
 * With `--variants`: every case under every semantics-preserving rewrite that applies to it
 * (test/detect/variants/), a table of rewrite × outcome (same, not followed, SILENT MISS, WRONG
 * COUNT), the pairs that were not the same, each marked when it is listed as expected to fail, and
 * how many variants of negative controls ended as anything but "no change" (false alarms).
 * `--variants --case <text> --rewrite <text>` keeps the pairs whose case id and rewrite id contain
 * the texts (either may be given alone), for a quick run over one class.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable } from 'markdown-table';
import { detectChanges } from '../src/detect/detect-changes.js';
import type { ChangeSet } from '../src/domain/index.js';

if (process.argv[2] === '--cases') {
  await printCases();
  process.exit(0);
}
if (process.argv[2] === '--variants') {
  await printVariants();
  process.exit(0);
}

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('../test/corpus', import.meta.url)));

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [relative(root, path)];
    });
}

// The provenance list and the licence texts of the sources are not corpus files.
const all = files(root).filter((p) => !p.endsWith('SOURCES.md') && !p.split(/[\\/]/).includes('LICENSES'));
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const rows: string[][] = [];
const states = new Map<string, number>();
for (const path of all) {
  // Each file as if a PR added it (before 0, after what it declares), its directory's other files
  // readable as they would be in a repository (Terraform variables and tfvars).
  const changes: ChangeSet = {
    base: { label: 'empty', read: async () => null },
    head: {
      label: root,
      read: async (p) => (all.includes(p) ? readFileSync(join(root, p), 'utf8') : null),
      list: async (dir) => all.filter((p) => dirOf(p) === dir),
    },
    changedPaths: async () => [path],
  };
  const result = await detectChanges(changes);
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const own = { changes: result.changes.filter((c) => c.file === path), diagnostics: result.diagnostics.filter((d) => d.file === path) };
  // Read, ruled out, or not followed (with the reasons): a file not followed is never a silent pass.
  const file = result.coverage.find((c) => c.file === path);
  const coverage = file ? [file.state, ...new Set((file.notFollowed ?? []).map((n) => n.reason))].join(': ') : '';
  states.set(file?.state ?? 'not-capacity', (states.get(file?.state ?? 'not-capacity') ?? 0) + 1);
  for (const c of own.changes) rows.push([path, `${c.line}`, c.kind, cell(c.name), c.gpuModel ?? '—', `${c.gpusAfter}`, coverage, '']);
  for (const d of own.diagnostics) rows.push([path, `${d.line ?? ''}`, '', '', '', '', coverage, cell(`${d.severity}: ${d.message}`)]);
  if (own.changes.length === 0 && own.diagnostics.length === 0) rows.push([path, '', '', '', '', '', coverage, 'nothing detected']);
}
process.stdout.write(`${markdownTable([['File', 'Line', 'Kind', 'Name', 'GPU model', 'GPUs', 'Coverage', 'Diagnostic'], ...rows])}\n`);
process.stdout.write(`\nCoverage: ${[...states].map(([state, n]) => `${n} ${state}`).join(', ')}\n`);

async function printCases(): Promise<void> {
  const { REAL_CASES, falseAlarm, runCase, wanted } = await import('../test/detect/real-cases.js');
  const labels = { right: 'right', 'not-followed': 'not followed (warned)', 'silent-miss': 'SILENT MISS', wrong: 'WRONG COUNT' };
  const counts = new Map<string, number>(Object.values(labels).map((l) => [l, 0]));
  const table: string[][] = [];
  let controls = 0;
  let alarms = 0;
  for (const c of REAL_CASES) {
    const { result, outcome } = await runCase(c);
    if (c.expect !== 'not-followed' && c.expect.length === 0) controls++;
    if (falseAlarm(c, outcome)) alarms++;
    counts.set(labels[outcome], (counts.get(labels[outcome]) ?? 0) + 1);
    const found = result.changes.map((x) => `${x.name} ${x.gpusBefore} → ${x.gpusAfter}`).join('; ') || '—';
    const expected =
      c.expect === 'not-followed' ? 'not followed' : c.expect.map((r) => `${r[1]} ${r[2]} → ${r[3]}`).join('; ') || 'no change';
    const note = outcome !== wanted(c) ? 'unexpected' : c.today ? `today: ${c.today.reason}` : '';
    table.push([c.id.replace(/\|/g, '\\|'), expected, found, labels[outcome], note.replace(/\|/g, '\\|')]);
  }
  process.stdout.write(`${markdownTable([['Case', 'Expected', 'Reported', 'Outcome', ''], ...table])}\n`);
  process.stdout.write(`\n${REAL_CASES.length} cases: ${[...counts].map(([l, n]) => `${n} ${l}`).join(', ')}\n`);
  process.stdout.write(`False alarms on negative controls (no change expected, not reported as such): ${alarms} of ${controls}\n`);
}

async function printVariants(): Promise<void> {
  const { allPairs, expectedFailure, failsAsListed, runVariant } = await import('../test/detect/variants/metamorphic.js');
  const { REWRITES } = await import('../test/detect/variants/rewrites.js');
  const labels = { same: 'same', 'not-followed': 'not followed', 'silent-miss': 'SILENT MISS', wrong: 'WRONG COUNT' } as const;
  const counts = new Map(REWRITES.map((r) => [r.id, { same: 0, 'not-followed': 0, 'silent-miss': 0, wrong: 0, listed: 0 }]));
  const failures: string[][] = [];
  let runs = 0;
  // Negative controls (no change expected, by the case and the rewrite) reported as anything else.
  const alarms = new Map<string, number>();
  let controls = 0;
  const caseText = optionValue('--case');
  const rewriteText = optionValue('--rewrite');
  const pairs = allPairs().filter(([c, rewrite]) => c.id.includes(caseText ?? '') && rewrite.id.includes(rewriteText ?? ''));
  for (const [c, rewrite] of pairs) {
    const run = await runVariant(c, rewrite);
    if (run === null) continue;
    runs += 1;
    if (run.expected === 'no change') {
      controls += 1;
      if (run.outcome !== 'same') alarms.set(rewrite.id, (alarms.get(rewrite.id) ?? 0) + 1);
    }
    const row = counts.get(rewrite.id);
    if (row) row[run.outcome] += 1;
    const listed = expectedFailure(c.id, rewrite.id) !== undefined;
    if (failsAsListed(run) && listed && row) row.listed += 1;
    if (run.outcome !== 'same')
      failures.push([
        rewrite.id,
        c.id.replace(/\|/g, '\\|'),
        run.expected,
        run.reported.replace(/\|/g, '\\|'),
        labels[run.outcome],
        listed ? 'listed' : '',
      ]);
  }
  const ran = new Set(pairs.map(([, r]) => r.id));
  const table = [...counts]
    .filter(([id]) => ran.has(id))
    .map(([id, n]) => [id, `${n.same}`, `${n['not-followed']}`, `${n['silent-miss']}`, `${n.wrong}`, `${n.listed}`]);
  const total = (k: 'same' | 'not-followed' | 'silent-miss' | 'wrong' | 'listed') => [...counts.values()].reduce((sum, n) => sum + n[k], 0);
  table.push([
    '**all**',
    `${total('same')}`,
    `${total('not-followed')}`,
    `${total('silent-miss')}`,
    `${total('wrong')}`,
    `${total('listed')}`,
  ]);
  process.stdout.write(
    `${markdownTable([['Rewrite', 'same', 'not followed', 'SILENT MISS', 'WRONG COUNT', 'of which (false alarms too) listed as expected to fail'], ...table])}\n\n`,
  );
  process.stdout.write(`${markdownTable([['Rewrite', 'Case', 'Expected', 'Reported', 'Outcome', ''], ...failures])}\n`);
  const alarmed = [...alarms].map(([id, n]) => `${n} ${id}`).join(', ');
  process.stdout.write(
    `\nFalse alarms on variants of negative controls (no change expected, not reported as such): ${[...alarms.values()].reduce((a, b) => a + b, 0)} of ${controls}${alarmed ? ` (${alarmed})` : ''}\n`,
  );
  process.stdout.write(
    `${runs} variants of ${new Set(pairs.map(([c]) => c.id)).size} cases under ${new Set(pairs.map(([, r]) => r.id)).size} rewrites\n`,
  );
}

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
