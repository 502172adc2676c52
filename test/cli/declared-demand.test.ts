import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DIR } from '../../src/cli/commands/demo.js';
import { runCli as run } from './run-cli.js';

/**
 * The CLI holds the same line as the App: demand a pull request declares in the catalog (read from
 * the head) does not justify it by itself, in any mode, and `--fail-on` fails on it.
 */

let dir: string;
let base: string;
let head: string;
const QUEUES = 'clusters/prod/kueue/cluster-queues.yaml';

/** A training run of `gpus` GPUs every night in research, 00:00–06:00. */
const entry = (gpus: number) => `
  - name: big-train
    type: training
    queue: research
    gpusPerJob: ${gpus}
    runtime: 5h
    window:
      earliestStart: "00:00"
      deadline: "06:00"
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gpu-justify-declared-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  await cp(join(DEMO_DIR, 'base'), base, { recursive: true });
  await cp(join(DEMO_DIR, 'base'), head, { recursive: true });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function declaring(gpus: number): Promise<void> {
  const queues = await readFile(join(base, QUEUES), 'utf8');
  await writeFile(join(head, QUEUES), queues.replace('nominalQuota: 6\n', `nominalQuota: ${6 + gpus}\n`));
  await writeFile(join(head, 'gpu-workloads.yaml'), `${await readFile(join(base, 'gpu-workloads.yaml'), 'utf8')}${entry(gpus)}`);
}

interface ReviewJson {
  verdict: string;
  catalogDemand?: { declared: { workload: string; support: unknown }[]; verdictWithHeadEntries: string };
  missingEvidence: { what: string; how: string }[];
}

describe('review of a pull request that declares the demand that would justify it', () => {
  it.each([24, 64, 396])('of %i GPUs: not justified by it, in JSON, markdown and --fail-on', async (gpus) => {
    await declaring(gpus);

    const json = await run('review', '--base', base, '--head', head, '--format', 'json');
    const r = JSON.parse(json.stdout) as ReviewJson;
    expect(r.verdict).not.toBe('justified');
    expect(r.catalogDemand?.declared).toEqual([expect.objectContaining({ workload: 'big-train', support: null })]);
    expect(r.catalogDemand?.verdictWithHeadEntries).toBe('justified');
    expect(r.missingEvidence.map((m) => m.what)).toContain(
      `measured demand of big-train (${gpus} GPUs at once), which this pull request adds to gpu-workloads.yaml`,
    );

    const markdown = await run('review', '--base', base, '--head', head);
    expect(markdown.stdout).toContain('declares demand in `gpu-workloads.yaml` that nothing measured, so it does not count');

    expect((await run('review', '--base', base, '--head', head, '--fail-on', 'not-justified')).code).toBe(1);
  });

  it.each([24, 396])('without a catalog, a Job manifest the PR adds declaring %i GPUs does not justify the raise', async (gpus) => {
    await declaring(gpus);
    await rm(join(head, 'gpu-workloads.yaml'));
    await mkdir(join(head, 'jobs'), { recursive: true });
    await writeFile(
      join(head, 'jobs/big.yaml'),
      `apiVersion: batch/v1
kind: Job
metadata:
  name: big-train
  namespace: research
  labels:
    kueue.x-k8s.io/queue-name: research-lq
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: registry.example/train:1
          resources:
            limits:
              nvidia.com/gpu: ${gpus}
`,
    );
    const { stdout } = await run('review', '--base', base, '--head', head, '--format', 'json');
    expect((JSON.parse(stdout) as ReviewJson).verdict).not.toBe('justified');
    await writeFile(join(head, 'gpu-workloads.yaml'), await readFile(join(base, 'gpu-workloads.yaml'), 'utf8'));
    await rm(join(head, 'jobs'), { recursive: true, force: true });
  });

  it('a catalog given with --catalog from outside the checkout is the reviewer’s, taken for both sides: nothing in it is declared by the pull request', async () => {
    await declaring(24);
    const outside = join(dir, 'reviewers-catalog.yaml');
    await cp(join(head, 'gpu-workloads.yaml'), outside);
    const { stdout } = await run('review', '--base', base, '--head', head, '--catalog', outside, '--format', 'json');
    const r = JSON.parse(stdout) as ReviewJson;
    expect(r.catalogDemand).toBeUndefined();
    expect(r.verdict).toBe('justified');
  });

  it('a catalog given with --catalog inside the checkout is the pull request’s: what it adds there is declared', async () => {
    await declaring(24);
    const { stdout } = await run(
      'review',
      '--base',
      base,
      '--head',
      head,
      '--catalog',
      join(head, 'gpu-workloads.yaml'),
      '--format',
      'json',
    );
    const r = JSON.parse(stdout) as ReviewJson;
    expect(r.catalogDemand?.declared).toEqual([expect.objectContaining({ workload: 'big-train', support: null })]);
    expect(r.verdict).not.toBe('justified');
  });
});
