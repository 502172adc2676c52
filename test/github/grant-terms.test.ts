import { describe, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, expectGrantKeptOrLapsed, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE } from './scenarios.js';

/**
 * A grant covers what a declaration gives beside its count: through the real App over signed
 * webhooks, after a maintainer overrode a queue's or a pool's increase, a push that keeps every
 * count but moves the queue into a cohort (or another one), raises or drops a flavor's borrowing
 * or lending limit, or raises a pool's sharing replicas lapses it, naming what is new; a push that
 * only tightens a limit or lowers the replicas keeps it. Variants generated.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: admin\n';

interface Terms {
  cohort?: string;
  /** `cohortName`, as Kueue v1beta2 spells it. */
  v1beta2?: boolean;
  borrowing?: number;
  lending?: number;
}

/** A ClusterQueue `research` with one a100 flavor of `gpus` GPUs and the terms given. */
function queue(gpus: number, t: Terms = {}): string {
  const limits = [
    ...(t.borrowing === undefined ? [] : [`              borrowingLimit: ${t.borrowing}\n`]),
    ...(t.lending === undefined ? [] : [`              lendingLimit: ${t.lending}\n`]),
  ].join('');
  const cohort = t.cohort === undefined ? '' : `  ${t.v1beta2 ? 'cohortName' : 'cohort'}: ${t.cohort}\n`;
  return `apiVersion: kueue.x-k8s.io/${t.v1beta2 ? 'v1beta2' : 'v1beta1'}
kind: ClusterQueue
metadata:
  name: research
spec:
  namespaceSelector: {}
${cohort}  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: cpu
              nominalQuota: 96
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
${limits}`;
}

function generator(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

interface Variant {
  name: string;
  /** Where the declaration stands; the queue file when absent. */
  file?: string;
  base: string;
  granted: string;
  pushed: string;
  /** What the lapse names; absent where the grant holds. */
  names?: RegExp;
}

const variants: Variant[] = [];
for (let i = 0; i < 2; i++) {
  const pick = generator(2026_12_07 + 31 * i);
  const low = 6 + pick(6);
  const raised = low * 2 + pick(8);
  const team = `team-${pick(1000)}`;
  const wide = `all-${pick(1000)}`;
  const limit = 1 + pick(8);
  variants.push(
    {
      name: `${low} → ${raised} granted outside a cohort; the push puts it in ${wide}`,
      base: queue(low),
      granted: queue(raised),
      pushed: queue(raised, { cohort: wide }),
      names: new RegExp(`now in cohort \`${wide}\``),
    },
    {
      name: `${low} → ${raised} granted outside a cohort; the push names ${wide} as v1beta2's cohortName`,
      base: queue(low),
      granted: queue(raised),
      pushed: queue(raised, { cohort: wide, v1beta2: true }),
      names: new RegExp(`now in cohort \`${wide}\``),
    },
    {
      name: `granted in ${team}; the push moves it to ${wide}, its quota lowered`,
      base: queue(low, { cohort: team, borrowing: limit }),
      granted: queue(raised, { cohort: team, borrowing: limit }),
      pushed: queue(raised - 1, { cohort: wide, borrowing: limit }),
      names: new RegExp(`now in cohort \`${wide}\``),
    },
    {
      name: `granted in ${team} borrowing ${limit}; the push borrows ${limit * 10}`,
      base: queue(low, { cohort: team, borrowing: limit }),
      granted: queue(raised, { cohort: team, borrowing: limit }),
      pushed: queue(raised, { cohort: team, borrowing: limit * 10 }),
      names: new RegExp(`may borrow from its cohort up to ${limit * 10} GPUs, beyond the ${limit} granted`),
    },
    {
      name: `granted in ${team} borrowing ${limit}; the push drops the limit`,
      base: queue(low, { cohort: team, borrowing: limit }),
      granted: queue(raised, { cohort: team, borrowing: limit }),
      pushed: queue(raised, { cohort: team }),
      names: /may borrow from its cohort with no limit/,
    },
    {
      name: `granted in ${team} lending ${limit}; the push lends ${limit + 4}`,
      base: queue(low, { cohort: team, lending: limit }),
      granted: queue(raised, { cohort: team, lending: limit }),
      pushed: queue(raised, { cohort: team, lending: limit + 4 }),
      names: new RegExp(`lends its cohort up to ${limit + 4} GPUs`),
    },
    {
      name: `granted in ${team} borrowing ${limit + 1}; the push tightens it to ${limit}`,
      base: queue(low, { cohort: team, borrowing: limit + 1 }),
      granted: queue(raised, { cohort: team, borrowing: limit + 1 }),
      pushed: queue(raised, { cohort: team, borrowing: limit }),
    },
    {
      name: `granted in ${team}; the push leaves the cohort`,
      base: queue(low, { cohort: team }),
      granted: queue(raised, { cohort: team }),
      pushed: queue(raised),
    },
  );
}

const POOL_FILE = 'infra/gpu-pool.tf';

/** A GKE node pool of `nodes` one-L4 nodes, each GPU time-shared by `clients` when given. */
function pool(nodes: number, clients?: number): string {
  const sharing =
    clients === undefined
      ? ''
      : `
      gpu_sharing_config {
        gpu_sharing_strategy       = "TIME_SHARING"
        max_shared_clients_per_gpu = ${clients}
      }`;
  return `resource "google_container_node_pool" "gpu" {
  name           = "gpu-pool"
  cluster        = "prod"
  node_locations = ["us-central1-a"]
  autoscaling {
    min_node_count = 0
    max_node_count = ${nodes}
  }
  node_config {
    machine_type = "g2-standard-8"
    guest_accelerator {
      type  = "nvidia-l4"
      count = 1${sharing}
    }
  }
}
`;
}

for (let i = 0; i < 2; i++) {
  const pick = generator(2026_12_07 + 77 * i);
  const nodes = 2 + pick(6);
  const clients = 2 + pick(3);
  variants.push(
    {
      name: `a pool ${nodes} → ${nodes * 2} nodes granted, each GPU shared by ${clients}; the push shares it by ${clients * 4}`,
      file: POOL_FILE,
      base: pool(nodes, clients),
      granted: pool(nodes * 2, clients),
      pushed: pool(nodes * 2, clients * 4),
      names: new RegExp(`now advertises each GPU ${clients * 4} times .*beyond the ${clients} granted`),
    },
    {
      name: `a pool ${nodes} → ${nodes * 2} nodes granted unshared; the push time-shares it by ${clients}`,
      file: POOL_FILE,
      base: pool(nodes),
      granted: pool(nodes * 2),
      pushed: pool(nodes * 2, clients),
      names: new RegExp(`now advertises each GPU ${clients} times`),
    },
    {
      name: `a pool ${nodes} → ${nodes * 2} nodes granted, shared by ${clients}; the push shares it by ${clients - 1}`,
      file: POOL_FILE,
      base: pool(nodes, clients),
      granted: pool(nodes * 2, clients),
      pushed: pool(nodes * 2, clients - 1),
    },
  );
}

async function granted(v: Variant): Promise<FakeRepo> {
  const pr = pullRequest({}, POLICY);
  const file = v.file ?? QUEUE_FILE;
  pr.baseFiles[file] = v.base;
  pr.headFiles[file] = v.granted;
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'admin';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  return repo;
}

describe('a grant covers the cohort, limits and sharing the approver saw', () => {
  it.each(variants)(
    '$name',
    async (v) => {
      const repo = await granted(v);
      repo.push(NEWER_SHA, { ...repo.pr.headFiles, [v.file ?? QUEUE_FILE]: v.pushed });
      expectGrantKeptOrLapsed(repo, await reviewPush(h, repo), v.names);
    },
    90_000,
  );
});
