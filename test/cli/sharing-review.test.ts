import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/** The real Karpenter blueprint (test/detect/fixtures/real/SOURCES.md): 4-way Bottlerocket time-slicing. */
const REAL = join(import.meta.dirname, '../detect/fixtures/real/gpu-sharing');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');

const CATALOG = [
  'workloads:',
  '  - name: image-tagger',
  '    type: inference',
  '    pool: gpu-slices',
  '    gpusPerReplica: 1',
  '    replicas: 48',
  '    slo:',
  '      p95LatencyMs: 500',
  '',
].join('\n');

let repo: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  repo = join(tmp.path, 'repo');
  const pool = real('karpenter-blueprints-gpu-nodepool.yaml');
  await writeFiles(repo, {
    'karpenter/gpu-nodeclass.yaml': real('karpenter-blueprints-gpu-nodeclass.yaml'),
    'karpenter/gpu-nodepool.yaml': pool,
    'gpu-workloads.yaml': CATALOG,
  });
  git(repo, 'init', '-q', '-b', 'main');
  commitAll(repo, 'base');
  git(repo, 'checkout', '-q', '-b', 'feature');
  await writeFiles(repo, { 'karpenter/gpu-nodepool.yaml': pool.replace('nvidia.com/gpu: 40', 'nvidia.com/gpu: 80') });
  commitAll(repo, 'raise the GPU limit');
  git(repo, 'checkout', '-q', '-b', 'fewer-slices', 'main');
  await writeFiles(repo, {
    'karpenter/gpu-nodeclass.yaml': real('karpenter-blueprints-gpu-nodeclass.yaml').replace('replicas = 4', 'replicas = 2'),
  });
  commitAll(repo, 'time-slice 2 ways');
  git(repo, 'checkout', '-q', '-b', 'other-class', 'main');
  await writeFiles(repo, {
    'gpu-operator/time-slicing.yaml': real('hpcgame-gpu-time-slicing-config.yaml'),
    'karpenter/gpu-nodepool.yaml': pool
      .replace('name: gpu-bottlerocket', 'name: default')
      .replace('nvidia.com/gpu: 40', 'nvidia.com/gpu: 80'),
  });
  commitAll(repo, 'move the pool to the default node class');
}, 60_000);

afterAll(async () => cleanup());

describe('review of a time-sliced Karpenter pool over git refs', () => {
  it('JSON: the limit 40 → 80 is 10 → 20 physical GPUs at 4 per GPU, judged on the shared need', async () => {
    const { code, stdout } = await runCli('review', '--base', 'main', '--head', 'feature', '--repo', repo, '--format', 'json');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as {
      verdict: string;
      gpusRequested: number;
      gpusNeeded: number;
      changes: { name: string; gpusBefore: number; gpusAfter: number; delta: number; sharing?: unknown }[];
      reviews: { need: number; gpusNeeded: number; sharing?: unknown }[];
    };
    expect(out.changes).toMatchObject([
      {
        name: 'gpu-slices',
        gpusBefore: 10,
        gpusAfter: 20,
        delta: 10,
        sharing: {
          state: 'shared',
          mode: 'bottlerocket-time-slicing',
          factorBefore: 4,
          factorAfter: 4,
          schedulableBefore: 40,
          schedulableAfter: 80,
          source: { file: 'karpenter/gpu-nodeclass.yaml', line: 29, name: 'EC2NodeClass/gpu-bottlerocket' },
        },
      },
    ]);
    const [review] = out.reviews;
    // 48 replicas of one shared GPU, with the default 20% headroom, need 58 shared GPUs: 15 physical.
    expect(review?.sharing).toMatchObject({ state: 'shared', schedulableNeed: 58, schedulableGpusNeeded: 18 });
    expect([review?.need, review?.gpusNeeded]).toEqual([15, 5]);
    expect([out.verdict, out.gpusRequested, out.gpusNeeded]).toEqual(['partially-justified', 10, 5]);
  });

  it('markdown: the changes table shows physical and shared GPUs and the factor, the reasons name the source', async () => {
    const { stdout } = await runCli('review', '--base', 'main', '--head', 'feature', '--repo', repo);
    expect(stdout).toContain('10 → 20 physical (40 → 80 shared, ×4)');
    // The limit is written in shared GPUs: the step to take says what to write.
    expect(stdout).toContain('Ask for 15 GPUs (+5) (60 shared GPUs at ×4) in `karpenter/gpu-nodepool.yaml:20` instead of 20.');
    expect(stdout).toContain(
      'GPUs shared ×4 by Bottlerocket time-slicing (EC2NodeClass/gpu-bottlerocket, karpenter/gpu-nodeclass.yaml:29): 40 → 80 schedulable GPUs; the GPU counts are physical',
    );
  });

  it('a sharing factor change is a change in schedulable GPUs with no physical GPU added', async () => {
    const { stdout } = await runCli('review', '--base', 'main', '--head', 'fewer-slices', '--repo', repo, '--format', 'json');
    const out = JSON.parse(stdout) as { verdict: string; gpusRequested: number; changes: unknown[] };
    expect(out.changes).toMatchObject([
      {
        kind: 'gpu-sharing',
        name: 'EC2NodeClass/gpu-bottlerocket',
        gpusBefore: 4,
        gpusAfter: 2,
        sharing: { state: 'factor', factorBefore: 4, factorAfter: 2, physicalDelta: 0 },
      },
    ]);
    expect([out.verdict, out.gpusRequested]).toEqual(['justified', 0]);
    const md = await runCli('review', '--base', 'main', '--head', 'fewer-slices', '--repo', repo);
    expect(md.stdout).toContain(
      'Each physical GPU is advertised as 2 schedulable GPUs (was 4): schedulable GPUs change, physical GPUs do not (+0).',
    );
  });

  it('a pool whose device-plugin config cannot be told: no verdict on a count that may be shared, low confidence', async () => {
    const { stdout } = await runCli('review', '--base', 'main', '--head', 'other-class', '--repo', repo, '--format', 'json');
    const out = JSON.parse(stdout) as {
      verdict: string;
      changes: { kind: string; gpusBefore: number; gpusAfter: number; sharing?: unknown }[];
      reviews: { name: string; verdict: string; confidence: string; sharing?: unknown }[];
      diagnostics: { severity: string; message: string }[];
    };
    // The added ConfigMap's profiles are sharing changes of their own; the pool is the one asking for GPUs.
    expect(out.changes.filter((c) => c.kind === 'karpenter-nodepool')).toMatchObject([
      {
        gpusBefore: 10,
        gpusAfter: 80,
        sharing: { state: 'unknown', code: 'sharing-ambiguous', source: { file: 'gpu-operator/time-slicing.yaml' } },
      },
    ]);
    expect(out.reviews.filter((r) => r.name === 'gpu-slices')).toMatchObject([
      { verdict: 'insufficient-evidence', confidence: 'low', sharing: { state: 'unknown' } },
    ]);
    expect(out.verdict).toBe('insufficient-evidence');
    expect(out.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringContaining('NodePool gpu-slices: cannot tell its physical GPUs (sharing-ambiguous)'),
    );
  });
});

describe('detect over git refs', () => {
  it('one line per change: physical GPUs, then the shared ones', async () => {
    const { stdout } = await runCli('detect', '--base', 'main', '--head', 'feature', '--repo', repo);
    expect(stdout).toBe(
      'karpenter/gpu-nodepool.yaml:20  karpenter-nodepool gpu-slices: 10 → 20 GPUs (+10); shared ×4: 40 → 80 schedulable GPUs',
    );
  });
});
