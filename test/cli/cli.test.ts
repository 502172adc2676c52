import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { runCli } from './run-cli.js';
import { DEMO_DIR } from '../../src/cli/commands/demo.js';
import type { StaggerJson } from '../../src/cli/commands/stagger.js';
import type { Diagnostic } from '../../src/domain/index.js';
import type { changeJson, reviewJson } from '../../src/report/json.js';

const run = runCli;

// What the commands print, in the shapes src/ builds them (docs/json.md).
const reviewOut = (stdout: string) => JSON.parse(stdout) as ReturnType<typeof reviewJson>;
const detectOut = (stdout: string) => JSON.parse(stdout) as { changes: ReturnType<typeof changeJson>[]; diagnostics: Diagnostic[] };
const staggerOut = (stdout: string) => JSON.parse(stdout) as StaggerJson;

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gpu-justify-cli-'));
  temps.push(dir);
  return dir;
}
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

const base = join(DEMO_DIR, 'base');
const head = join(DEMO_DIR, 'head');

describe('gpu-justify demo', () => {
  it('prints the comment for the demo PR: the research quota doubling is not needed', async () => {
    const { code, stdout } = await run('demo');
    expect(code).toBe(0);
    expect(stdout).toContain('<!-- gpu-justify:comment -->');
    expect(stdout).toContain('GPU increase not justified');
    expect(stdout).toMatch(/\+6 GPUs requested, 0 to add/);
    expect(stdout).toContain('```mermaid\ngantt');
  });
});

describe('the demo snapshot', () => {
  it('answers every question the demo review asks (re-record with npm run demo:snapshot when a query changes)', async () => {
    const { code, stdout } = await run(
      'review',
      '--base',
      base,
      '--head',
      head,
      '--snapshot',
      join(DEMO_DIR, 'snapshot.json'),
      '--format',
      'json',
    );
    expect(code).toBe(0);
    const json = reviewOut(stdout);
    expect(JSON.stringify(json.missingEvidence)).not.toMatch(/holds no answer/);
    expect(json.telemetry).toMatchObject({ at: '2026-11-29T00:00:00.000Z', windowMinutes: 2880 });
    const research = json.reviews[0];
    expect(research).toMatchObject({ name: 'research', verdict: 'not-justified', confidence: 'high' });
    // Each night: three 2-GPU runs for 2h, one more after them, and a 4-GPU finetune for 3h.
    const queue = research?.ladders?.find((l) => l.scope === 'queue');
    // Sampled every 5 minutes, so within one step of the six GPUs that can be in use.
    expect(Math.abs((queue?.allocatedGpuHours ?? NaN) - 2 * (4 * 2 * 2 + 4 * 3))).toBeLessThanOrEqual(6 * (5 / 60));
  });
});

describe('gpu-justify detect', () => {
  it('prints the change in the JSON shape of docs/json.md', async () => {
    const { code, stdout } = await run('detect', '--base', base, '--head', head, '--json');
    expect(code).toBe(0);
    const json = detectOut(stdout);
    // Priced at the catalog's default for the model, 730 hours a month.
    expect(json.changes[0]?.usdPerMonthDelta).toBeCloseTo(6 * (json.changes[0]?.usdPerGpuHour ?? NaN) * 730, 2);
    expect(json).toEqual({
      changes: [
        {
          file: 'clusters/prod/kueue/cluster-queues.yaml',
          line: 27,
          kind: 'kueue-cluster-queue',
          name: 'research',
          gpuModel: match.toBeOneOf([null, 'A100']),
          gpusBefore: 6,
          gpusAfter: 12,
          delta: 6,
          usdPerGpuHour: match.any(Number),
          usdPerMonthDelta: match.any(Number),
        },
      ],
      diagnostics: [],
      coverage: [{ file: 'clusters/prod/kueue/cluster-queues.yaml', state: 'read', objects: match.any(Number) }],
    });
  });
});

describe('gpu-justify review', () => {
  it('gives the JSON verdict with the stagger lever and its evidence', async () => {
    const { code, stdout } = await run('review', '--base', base, '--head', head, '--format', 'json');
    expect(code).toBe(0);
    const json = reviewOut(stdout);
    expect(json).toMatchObject({ verdict: 'not-justified', gpusRequested: 6, gpusNeeded: 0, missingEvidence: [], diagnostics: [] });
    expect(json.findings).toEqual([expect.objectContaining({ lever: 'stagger', gpusFreed: 6, meetsNeed: true })]);
    expect(json.findings[0]?.evidence).toContainEqual({ source: 'catalog', ref: 'gpu-workloads.yaml:3' });
  });

  it('prices the change with the policy’s prices over the catalog defaults', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'policy.yml'), 'prices:\n  A100: 2\n');
    const { code, stdout } = await run('review', '--base', base, '--head', head, '--config', join(dir, 'policy.yml'), '--format', 'json');
    expect(code).toBe(0);
    expect(reviewOut(stdout).changes[0]).toMatchObject({ usdPerGpuHour: 2, usdPerMonthDelta: 6 * 2 * 730 });
  });

  it('exits 1 when --fail-on matches the verdict, 0 when it does not', async () => {
    expect((await run('review', '--base', base, '--head', head, '--fail-on', 'not-justified')).code).toBe(1);
    expect((await run('review', '--base', base, '--head', head, '--fail-on', 'partially-justified')).code).toBe(1);
    expect((await run('review', '--base', base, '--head', base, '--fail-on', 'not-justified')).code).toBe(0);
  });

  it.each([
    [['review', '--head', head], /--base is required/],
    [['review', '--base', base, '--head', head, '--format', 'xml'], /--format must be markdown or json/],
    [['review', '--base', base, '--head', head, '--bogus'], /bogus/],
    [['review', '--base', base, '--head', head, '--catalog', '/nonexistent/c.yaml'], /--catalog \/nonexistent\/c\.yaml: no such file/],
    [['review', '--base', base, '--head', head, '--snapshot', '/nonexistent/s.json'], /cannot read snapshot \/nonexistent\/s\.json/],
    [
      ['review', '--base', base, '--head', head, '--snapshot', 's.json', '--prometheus', 'http://127.0.0.1:9'],
      /--snapshot or --prometheus, not both/,
    ],
    [['review', '--base', base, '--head', head, '--opencost', 'http://127.0.0.1:9'], /--opencost needs --prometheus/],
    [
      ['review', '--base', base, '--head', head, '--prometheus', 'http://127.0.0.1:9', '--at', 'yesterday'],
      /--at must be an ISO-8601 time/,
    ],
    [['review', '--base', base, '--head', head, '--prometheus', 'ftp://x'], /PROMETHEUS|http/i],
    [['snapshot', '--catalog', 'c.yaml', '--prometheus', 'http://127.0.0.1:9'], /--out is required/],
    [
      ['snapshot', '--catalog', 'c.yaml', '--dir', base, '--prometheus', 'http://127.0.0.1:9', '--out', 's.json'],
      /--dir names the checkout read when there is neither --catalog nor --base\/--head/,
    ],
    [
      // The demo's base side declares ClusterQueues but no workload that runs in one.
      ['snapshot', '--dir', base, '--prometheus', 'http://127.0.0.1:9', '--out', 's.json'],
      /no workload the manifests in .* declare names a ClusterQueue or node pool to measure; give --catalog/,
    ],
    [['frobnicate'], /unknown command frobnicate\n/],
    [['reveiw'], /unknown command reveiw \(did you mean review\?\)/],
    [
      ['review', '--base', base, '--head', head, '--prometeus', 'http://127.0.0.1:9'],
      /Unknown option '--prometeus' \(did you mean --prometheus\?\)/,
    ],
    [['review', '--base', base, '--head', head, '--fail-on-x'], /Unknown option '--fail-on-x' \(did you mean --fail-on\?\)/],
    [['demo', '--fast'], /Unknown option '--fast'; this command takes no flags/],
    [['detect', '--base', base, '--head', head, '--zzz'], /Unknown option '--zzz'; the flags are --base, --head, --repo, --json/],
    [['stagger', '--catalog', `${base}/gpu-workloads.yaml`, '--queue', 'reserch'], /in queue reserch \(did you mean research\?\)/],
  ])('exits 2 for bad usage: %j', async (argv, message) => {
    const { code, stderr } = await run(...argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('shows bad catalog entries with file and line and still reviews', async () => {
    const dir = await tempDir();
    await cp(base, join(dir, 'base'), { recursive: true });
    await cp(head, join(dir, 'head'), { recursive: true });
    await writeFile(
      join(dir, 'head', 'gpu-workloads.yaml'),
      'workloads:\n  - name: eval\n    type: batch\n    queue: research\n    gpusPerJob: -2\n    runtime: 2h\n    window: { earliestStart: "00:00", deadline: "06:00" }\n    colour: blue\n',
    );
    const { code, stdout } = await run('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--format', 'json');
    expect(code).toBe(0);
    const json = reviewOut(stdout);
    expect(json.verdict).toBe('insufficient-evidence');
    expect(json.diagnostics).toEqual(
      expect.arrayContaining([
        match.objectContaining({ file: 'gpu-workloads.yaml', line: 5, severity: 'error', message: match.stringContaining('gpusPerJob') }),
        match.objectContaining({ file: 'gpu-workloads.yaml', line: 8, severity: 'error', message: match.stringContaining('colour') }),
      ]),
    );
  });

  it('will not find an increase unneeded while a broken entry of its queue is left out', async () => {
    const dir = await tempDir();
    await cp(base, join(dir, 'base'), { recursive: true });
    await cp(head, join(dir, 'head'), { recursive: true });
    const demoCatalog = await readFile(join(head, 'gpu-workloads.yaml'), 'utf8');
    // The demo's verdict is not-justified; a further research job with a typo in its count must unsettle it.
    const broken = `${demoCatalog}\n  - name: weekly-sweep\n    type: batch\n    queue: research\n    gpusPerJob: 8\n    runtime: 4h\n    jobsPerDay: "two"\n    window: { earliestStart: "00:00", deadline: "06:00" }\n`;
    await writeFile(join(dir, 'head', 'gpu-workloads.yaml'), broken);
    const line = broken.split('\n').findIndex((l) => l.includes('jobsPerDay: "two"')) + 1;
    const { code, stdout } = await run('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--format', 'json');
    expect(code).toBe(0);
    const json = reviewOut(stdout);
    expect(json).toMatchObject({ verdict: 'insufficient-evidence', gpusNeeded: null });
    expect(json.missingEvidence).toContainEqual({
      what: `a valid catalog entry for weekly-sweep (gpu-workloads.yaml:${line}), which names ClusterQueue research`,
      how: `fix gpu-workloads.yaml:${line}: workloads[3].jobsPerDay: must be a positive whole number, got "two"; until then the entry is left out of the need`,
      code: 'catalog-entry-invalid',
    });
  });

  it('reports a quota that is a template expression instead of counting it, and the change as unknown', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'base'));
    await mkdir(join(dir, 'head'));
    await writeFile(
      join(dir, 'head', 'cq.yaml'),
      'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: q\nspec:\n  resourceGroups:\n  - coveredResources: ["nvidia.com/gpu"]\n    flavors:\n    - name: f\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: {{ .Values.gpus }}\n',
    );
    const { code, stdout } = await run('detect', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--json');
    expect(code).toBe(0);
    const json = detectOut(stdout);
    expect(json.changes).toEqual([]);
    expect(json.diagnostics).toEqual([
      match.objectContaining({ file: 'cq.yaml', line: 12, message: match.stringContaining('{{ .Values.gpus }}') }),
      match.objectContaining({ file: 'cq.yaml', line: 12, severity: 'error', message: match.stringContaining('it is new') }),
    ]);
  });
});

describe('gpu-justify snapshot', () => {
  it('writes nothing and exits 2 when the source answered none of its queries', async () => {
    const dir = await tempDir();
    const file = join(dir, 'snap.json');
    // Port 9 (discard) on loopback: nothing listens, so every query is refused at once.
    const rec = await run(
      'snapshot',
      '--catalog',
      join(base, 'gpu-workloads.yaml'),
      '--prometheus',
      'http://127.0.0.1:9',
      '--base',
      base,
      '--head',
      head,
      '--at',
      '2026-11-01T00:00:00Z',
      '--window',
      '1d',
      '--out',
      file,
    );
    expect(rec.code).toBe(2);
    expect(rec.stderr).toMatch(
      /nothing recorded: none of the \d+ queries was answered by prometheus at http:\/\/127\.0\.0\.1:9 \(the first: .*unreachable/,
    );
    expect(rec.stderr).toContain(`${file} was not written`);
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('gpu-justify review with a Prometheus it cannot reach', () => {
  it('says "not measured" on stderr and on the first screen, and in the JSON', async () => {
    const args = [
      'review',
      '--base',
      base,
      '--head',
      head,
      '--prometheus',
      'http://127.0.0.1:9',
      '--at',
      '2026-11-01T00:00:00Z',
      '--window',
      '1d',
    ];
    const md = await run(...args);
    expect(md.code).toBe(0);
    expect(md.stderr).toMatch(
      /^gpu-justify: not measured: prometheus at http:\/\/127\.0\.0\.1:9 could not be reached \(none of its \d+ queries was answered; the first: .*connection failed/m,
    );
    const firstScreen = md.stdout.slice(0, md.stdout.indexOf('<details>'));
    expect(firstScreen).toMatch(/\*\*Evidence: not measured:\*\* prometheus at http:.*127\.0\.0\.1:9 could not be reached/);
    expect(firstScreen).not.toMatch(/measured over/);

    const json = reviewOut((await run(...args, '--format', 'json')).stdout);
    expect(json.telemetry?.windowMinutes).toBe(1440);
    expect(json.telemetry?.outage?.reason).toBe('unavailable');
    expect(json.telemetry?.outage?.queries).toBeGreaterThan(0);
  });
});

describe('gpu-justify stagger', () => {
  it('plans the demo queue at 4 GPUs, proven optimal', async () => {
    const { code, stdout } = await run(
      'stagger',
      '--catalog',
      join(base, 'gpu-workloads.yaml'),
      '--queue',
      'research',
      '--capacity',
      '6',
      '--json',
    );
    expect(code).toBe(0);
    const json = staggerOut(stdout);
    expect(json).toMatchObject({ peakGpus: 4, lowerBound: 4, optimal: true, capacity: 6, fits: true });
    expect(json.schedule.filter((r: { workload: string }) => r.workload === 'nightly-eval')).toHaveLength(4);
  });
});
