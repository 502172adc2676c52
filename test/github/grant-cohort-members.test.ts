import { describe, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, expectGrantKeptOrLapsed, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE } from './scenarios.js';

/**
 * A grant covers the other queues of a changed queue's cohort: through the real App over signed
 * webhooks, after a maintainer overrode a queue's increase inside a cohort, a push that changes no
 * count but lets that queue borrow more (another member lends more or without limit, may borrow
 * more, or a queue of unchanged quota joins the cohort) lapses the grant, naming the member; a
 * member's file touched and left as it was, a member lending less or leaving the cohort keeps it.
 * The queue's flavor beside it moved to other GPU nodes lapses it too (the queue's model changed).
 * Variants generated.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: admin\n';
const MEMBER_FILE = 'clusters/prod/lender-queue.yaml';

interface Queue {
  name: string;
  gpus: number;
  cohort?: string | undefined;
  borrowing?: number | undefined;
  lending?: number | undefined;
  /** A comment line at the top: the file changed, nothing it declares. */
  note?: string;
}

/** A ClusterQueue with one a100 flavor and the terms given. */
function queue(q: Queue): string {
  const limits = [
    ...(q.borrowing === undefined ? [] : [`              borrowingLimit: ${q.borrowing}\n`]),
    ...(q.lending === undefined ? [] : [`              lendingLimit: ${q.lending}\n`]),
  ].join('');
  const cohort = q.cohort === undefined ? '' : `  cohort: ${q.cohort}\n`;
  return `${q.note === undefined ? '' : `# ${q.note}\n`}apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: ${q.name}
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
              nominalQuota: ${q.gpus}
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
  /** The cohort of the overridden queue. */
  team: string;
  /** The member's file at base, at the granted head and after the push; absent: no such file. */
  base?: string;
  granted?: string;
  pushed: string;
  /** What the lapse names; absent where the grant holds. */
  names?: RegExp;
}

const variants: Variant[] = [];
for (let i = 0; i < 2; i++) {
  const pick = generator(2026_12_07 + 53 * i);
  const team = `team-${pick(1000)}`;
  const lender = `lender-${pick(1000)}`;
  const gpus = 16 + pick(48);
  const lending = 2 + pick(6);
  const member = (q: Partial<Queue> = {}): string => queue({ name: lender, gpus, cohort: team, lending, ...q });
  const variant = (v: Omit<Variant, 'team'>): Variant => ({ ...v, team });
  variants.push(
    variant({
      name: `${lender} of ${team} lends ${lending} at grant; the push lends ${lending * 4}`,
      base: member(),
      granted: member(),
      pushed: member({ lending: lending * 4 }),
      names: new RegExp(`\`${lender}\` .* lends its cohort up to ${lending * 4} GPUs, beyond`),
    }),
    variant({
      name: `${lender} of ${team} lends ${lending} at grant; the push drops its lending limit`,
      base: member(),
      granted: member(),
      pushed: member({ lending: undefined }),
      names: new RegExp(`\`${lender}\` .* lends its cohort with no limit`),
    }),
    variant({
      name: `${lender} of ${team} at grant; the push lets it borrow without limit (${lending} before)`,
      base: member({ borrowing: lending }),
      granted: member({ borrowing: lending }),
      pushed: member({ borrowing: undefined }),
      names: new RegExp(`\`${lender}\` .* may borrow from its cohort with no limit`),
    }),
    variant({
      name: `${lender} of ${gpus} GPUs outside any cohort at grant; the push puts it in ${team}`,
      base: member({ cohort: undefined }),
      granted: member({ cohort: undefined }),
      pushed: member({ lending: undefined }),
      names: new RegExp(`\`${lender}\` .* now in cohort \`${team}\`.*may borrow its GPUs`),
    }),
    variant({
      name: `${lender} of ${team} in another cohort at grant; the push moves it into ${team}`,
      base: member({ cohort: `other-${team}` }),
      granted: member({ cohort: `other-${team}` }),
      pushed: member(),
      names: new RegExp(`\`${lender}\` .* now in cohort \`${team}\``),
    }),
    variant({
      name: `a new file declaring ${lender} of 0 GPUs in ${team}, borrowing without limit`,
      pushed: member({ gpus: 0, lending: undefined }),
      names: new RegExp(`\`${lender}\` .* now in cohort \`${team}\``),
    }),
    variant({
      name: `${lender} raised to lend ${lending + 2} at grant (shown); the push lends ${lending + 9}`,
      base: member(),
      granted: member({ lending: lending + 2 }),
      pushed: member({ lending: lending + 9 }),
      names: new RegExp(`lends its cohort up to ${lending + 9} GPUs, beyond the ${lending + 2} granted`),
    }),
    variant({
      name: `${lender} raised to lend ${lending + 2} at grant (shown); the push keeps it`,
      base: member(),
      granted: member({ lending: lending + 2 }),
      pushed: member({ lending: lending + 2, note: 'same queue' }),
    }),
    variant({
      name: `${lender}'s file touched, every term as the base has it`,
      base: member(),
      granted: member(),
      pushed: member({ note: `reviewed ${pick(1000)}` }),
    }),
    variant({
      name: `${lender} lends ${lending} at grant; the push lends ${lending - 1}`,
      base: member(),
      granted: member(),
      pushed: member({ lending: lending - 1 }),
    }),
    variant({
      name: `${lender} leaves ${team}`,
      base: member(),
      granted: member(),
      pushed: member({ cohort: undefined }),
    }),
  );
}

/** The queue's flavor in a file beside it, its nodes labelled with a GPU model. */
function flavor(accelerator: string): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: a100
spec:
  nodeLabels:
    cloud.google.com/gke-accelerator: ${accelerator}
`;
}

variants.push(
  {
    name: 'the flavor beside the queue moved to H100 nodes, every count kept',
    team: 'team-flavor',
    base: flavor('nvidia-tesla-a100'),
    granted: flavor('nvidia-tesla-a100'),
    pushed: flavor('nvidia-h100-80gb'),
    names: /a new GPU change: `research`/,
  },
  {
    name: 'the flavor beside the queue relabelled with the same GPU model',
    team: 'team-flavor',
    base: flavor('nvidia-tesla-a100'),
    granted: flavor('nvidia-tesla-a100'),
    pushed: `# the same nodes\n${flavor('nvidia-tesla-a100')}`,
  },
);

async function granted(v: Variant, team: string): Promise<FakeRepo> {
  const pr = pullRequest({}, POLICY);
  pr.baseFiles[QUEUE_FILE] = queue({ name: 'research', gpus: 8, cohort: team });
  pr.headFiles[QUEUE_FILE] = queue({ name: 'research', gpus: 12, cohort: team });
  if (v.base !== undefined) pr.baseFiles[MEMBER_FILE] = v.base;
  if (v.granted !== undefined) pr.headFiles[MEMBER_FILE] = v.granted;
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'admin';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  return repo;
}

describe('a grant covers the other queues of a changed queue’s cohort', () => {
  it.each(variants)(
    '$name',
    async (v) => {
      const repo = await granted(v, v.team);
      repo.push(NEWER_SHA, { ...repo.pr.headFiles, [MEMBER_FILE]: v.pushed });
      expectGrantKeptOrLapsed(repo, await reviewPush(h, repo), v.names);
    },
    90_000,
  );
});
