import { DEFAULT_POLICY, type Policy, type ReviewResult } from '../../src/domain/index.js';
import { runReview } from '../../src/review/index.js';
import { memoryChangeSet, type Tree } from '../memory-change-set.js';

export function queueFile(gpus: number | string, name = 'research'): string {
  return `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: ${name}
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;
}

export function catalog(workloadName = 'nightly-eval', gpusPerJob = 2, runtime = '2h', jobsPerDay = 4): string {
  return `workloads:
  - name: "${workloadName}"
    type: batch
    queue: research
    gpusPerJob: ${gpusPerJob}
    runtime: ${runtime}
    jobsPerDay: ${jobsPerDay}
    window:
      earliestStart: "00:00"
      deadline: "06:00"
`;
}

export async function review(base: Tree, head: Tree, policy: Partial<Policy> = {}): Promise<ReviewResult> {
  return runReview({
    changes: memoryChangeSet(base, head),
    policy: { policy: { ...DEFAULT_POLICY, ...policy }, diagnostics: [], file: null },
    headSha: '0123456789abcdef0123456789abcdef01234567',
  });
}

/** One PR per verdict. */
export const SCENARIOS = {
  'not-justified': () =>
    review(
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
      { headroom: 0 },
    ),
  'partially-justified': () =>
    review(
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog() },
      { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog() },
      { headroom: 0.2 },
    ),
  justified: () =>
    review(
      { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
      { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog('tight', 4, '6h', 2) },
      { headroom: 0, mode: 'enforce' },
    ),
  'insufficient-evidence': () => review({ 'q.yaml': queueFile(4) }, { 'q.yaml': queueFile(8) }),
  'no-gpu-change': () => review({ 'README.md': 'a' }, { 'README.md': 'b' }),
} as const;
