import type { PullRequestState } from '../../test/helpers/fake-repo.js';
import { EXAMPLE_REPO } from '../../test/helpers/payloads.js';
import { CATALOG, MEASURED_CATALOG, QUEUE_FILE, README, clusterQueue } from '../../test/github/scenarios.js';
import { syntheticPr } from '../detect/synthetic-pr.js';

export interface AppScenario {
  name: string;
  pr: PullRequestState;
  /** Changed paths that declare GPU capacity. */
  gpuFiles: string[];
  changedFiles: number;
}

const sha = (n: number, salt: string): string => `${salt}${n.toString(16)}`.padEnd(40, '0').slice(0, 40);
const common = { 'gpu-workloads.yaml': CATALOG, 'README.md': README };

function state(number: number, baseFiles: Record<string, string>, headFiles: Record<string, string>): PullRequestState {
  return { base: EXAMPLE_REPO, number, baseSha: sha(number, 'b'), headSha: sha(number, 'c'), baseFiles, headFiles };
}

/** The research queue raised from 6 to 12 GPUs: the App's main case. */
export function gpuPr(number: number): AppScenario {
  return {
    name: 'GPU PR (one ClusterQueue raised)',
    pr: state(number, { ...common, [QUEUE_FILE]: clusterQueue(6) }, { ...common, [QUEUE_FILE]: clusterQueue(12) }),
    gpuFiles: [QUEUE_FILE],
    changedFiles: 1,
  };
}

/** The research queue raised, its nightly runs labelled as the simulated cluster labels them: telemetry finds them. */
export function measuredGpuPr(number: number): AppScenario {
  const measured = { ...common, 'gpu-workloads.yaml': MEASURED_CATALOG };
  return {
    name: 'GPU PR with telemetry (Prometheus 50–300 ms away)',
    pr: state(number, { ...measured, [QUEUE_FILE]: clusterQueue(6) }, { ...measured, [QUEUE_FILE]: clusterQueue(12) }),
    gpuFiles: [QUEUE_FILE],
    changedFiles: 1,
  };
}

/** Two queues raised, each with its own nightly runs: two suggested changes in one review. */
export function twoQueuePr(number: number): AppScenario {
  const second = 'clusters/prod/team-b.yaml';
  const teamB = (gpus: number) => clusterQueue(gpus).replace('name: research', 'name: team-b');
  const catalog = `${CATALOG}${CATALOG.replace('workloads:\n', '').replace('nightly-eval', 'team-b-eval').replace('queue: research', 'queue: team-b')}`;
  const both = { ...common, 'gpu-workloads.yaml': catalog };
  return {
    name: 'GPU PR (two ClusterQueues raised)',
    pr: state(
      number,
      { ...both, [QUEUE_FILE]: clusterQueue(6), [second]: teamB(6) },
      { ...both, [QUEUE_FILE]: clusterQueue(12), [second]: teamB(12) },
    ),
    gpuFiles: [QUEUE_FILE, second],
    changedFiles: 2,
  };
}

/** A Deployment scaled and the README edited: nothing about GPUs. */
export function nonGpuPr(number: number): AppScenario {
  const [d] = syntheticPr(120).filter((f) => f.category === 'deployment');
  if (!d?.base) throw new Error('no deployment in the synthetic PR');
  return {
    name: 'non-GPU PR (Deployment + README)',
    pr: state(number, { ...common, [d.path]: d.base }, { ...common, [d.path]: d.head, 'README.md': `${README}More.\n` }),
    gpuFiles: [],
    changedFiles: 2,
  };
}

/** 250 changed files: five ClusterQueues raised among ordinary Deployments, Terraform, Helm values, Markdown. */
export function bigPr(number: number): AppScenario {
  const queues = Array.from({ length: 5 }, (_, i) => `clusters/team-${i}/queue.yaml`);
  const ordinary = syntheticPr(400)
    .filter((f) => f.category !== 'gpu-corpus' && f.base !== null)
    .slice(0, 250 - queues.length);
  const base: Record<string, string> = { ...common };
  const head: Record<string, string> = { ...common };
  queues.forEach((q, i) => {
    base[q] = clusterQueue(6).replace('name: research', i === 0 ? 'name: research' : `name: team-${i}`);
    head[q] = clusterQueue(12).replace('name: research', i === 0 ? 'name: research' : `name: team-${i}`);
  });
  for (const f of ordinary) {
    base[f.path] = f.base as string;
    head[f.path] = f.head;
  }
  return {
    name: '250-file PR (5 ClusterQueues)',
    pr: state(number, base, head),
    gpuFiles: queues,
    changedFiles: queues.length + ordinary.length,
  };
}
