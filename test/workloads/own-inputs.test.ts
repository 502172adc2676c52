import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { runReview } from '../../src/review.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';

const CATALOG = `workloads:
  - name: nightly-eval
    type: batch
    queue: research
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
  - name: chat
    type: inference
    pool: l4-pool
    gpusPerReplica: 1
    replicas: 2
    loadTest: loadtests/chat-l4.json
`;

const LOAD_TEST = JSON.stringify({ benchmarks: [{ rate: 2, gpu: 'nvidia-l4', p95: 900 }] });

const POLICY = `mode: enforce
prices:
  H100: 4.0
`;

async function review(base: Tree, head: Tree) {
  return runReview({ changes: memoryChangeSet(base, head), policy: { policy: DEFAULT_POLICY, diagnostics: [], file: null } });
}

const state = (r: Awaited<ReturnType<typeof review>>, file: string) => r.coverage?.find((c) => c.file === file)?.state;

describe("the review's own inputs name GPUs and declare none", () => {
  it.each([
    ['the catalog', 'gpu-workloads.yaml', CATALOG, CATALOG.replace('jobsPerDay: 4', 'jobsPerDay: 12')],
    ['the policy', '.github/gpu-justify.yml', POLICY, POLICY.replace('4.0', '5.5')],
    ['a load test the catalog names', 'loadtests/chat-l4.json', LOAD_TEST, LOAD_TEST.replace('900', '950')],
  ])('%s edited alone is followed, and the PR is no GPU change', async (_what, file, before, after) => {
    const base = { 'gpu-workloads.yaml': CATALOG, [file]: before };
    const result = await review(base, { ...base, [file]: after });
    expect(state(result, file)).not.toBe('not-followed');
    expect(result.verdict).toBe('no-gpu-change');
  });

  it.each([
    [
      'a second document the catalog file carries',
      'gpu-workloads.yaml',
      CATALOG,
      `${CATALOG}---\napiVersion: gpu.example.com/v1\nkind: GpuPool\nspec:\n  nvidia.com/gpu: 64\n`,
    ],
    ['a key no catalog has', 'gpu-workloads.yaml', CATALOG, `${CATALOG}gpuPools:\n  a100: 16\n`],
    [
      'a Kubernetes object where the load test was',
      'loadtests/chat-l4.json',
      LOAD_TEST,
      JSON.stringify({ apiVersion: 'gpu.example.com/v1', kind: 'GpuPool', spec: { 'nvidia.com/gpu': 64 } }),
    ],
  ])('%s keeps the file not followed', async (_what, file, before, after) => {
    const base = { 'gpu-workloads.yaml': CATALOG, [file]: before };
    const result = await review(base, { ...base, [file]: after });
    expect(state(result, file)).toBe('not-followed');
    expect(result.verdict).toBe('insufficient-evidence');
  });
});
