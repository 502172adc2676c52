import { describe, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, expectGrantKeptOrLapsed, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE } from './scenarios.js';

/**
 * A grant covers the GPUs where the approver saw them: through the real App over signed webhooks,
 * after a maintainer overrode a queue's increase, a push that moves GPUs to a flavor the grant did
 * not show them in (renamed, added beside, or shifted between two, the queue's total no larger)
 * lapses it, naming the flavor; lowering a flavor the grant showed keeps it. Variants generated.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: admin\n';

/** A ClusterQueue `research` with one GPU quota per flavor, in order. */
function queue(flavors: [string, number][]): string {
  const blocks = flavors.map(
    ([name, gpus]) =>
      `        - name: ${name}\n          resources:\n            - name: cpu\n              nominalQuota: 96\n            - name: nvidia.com/gpu\n              nominalQuota: ${gpus}\n`,
  );
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"]
      flavors:
${blocks.join('')}`;
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
  base: [string, number][];
  granted: [string, number][];
  pushed: [string, number][];
  /** What the lapse names; absent where the grant holds. */
  names?: RegExp;
}

const variants: Variant[] = [];
for (let i = 0; i < 3; i++) {
  const pick = generator(2026_12_07 + i);
  // At least the 6 the catalog needs: every increase is then unjustified on its own.
  const low = 6 + pick(6);
  const raised = low * 2 + pick(8);
  const other = `h${100 + pick(900)}`;
  const lower = low + 1 + pick(raised - low - 1);
  variants.push(
    {
      name: `a100 ${low} → ${raised} granted; the flavor renamed ${other} at ${lower}`,
      base: [['a100', low]],
      granted: [['a100', raised]],
      pushed: [[other, lower]],
      names: new RegExp(`in \`${other}\``),
    },
    {
      name: `a100 ${low} → ${raised} granted; ${other} added beside at 1, a100 down to ${lower - 1}`,
      base: [['a100', low]],
      granted: [['a100', raised]],
      pushed: [
        ['a100', lower - 1],
        [other, 1],
      ],
      names: new RegExp(`in \`${other}\``),
    },
    {
      name: `a100 and ${other} ${low} each → ${raised} each granted; all ${raised * 2} moved to ${other}`,
      base: [
        ['a100', low],
        [other, low],
      ],
      granted: [
        ['a100', raised],
        [other, raised],
      ],
      pushed: [
        ['a100', 0],
        [other, raised * 2],
      ],
      names: new RegExp(`in \`${other}\`.*beyond the ${raised} granted`),
    },
    {
      name: `a100 ${low} → ${raised} granted; a100 lowered to ${lower}`,
      base: [['a100', low]],
      granted: [['a100', raised]],
      pushed: [['a100', lower]],
    },
    {
      name: `a100 and ${other} granted; both lowered`,
      base: [
        ['a100', low],
        [other, low],
      ],
      granted: [
        ['a100', raised],
        [other, raised],
      ],
      pushed: [
        ['a100', lower],
        [other, lower],
      ],
    },
  );
}

async function granted(v: Variant): Promise<FakeRepo> {
  const pr = pullRequest({}, POLICY);
  pr.baseFiles[QUEUE_FILE] = queue(v.base);
  pr.headFiles[QUEUE_FILE] = queue(v.granted);
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'admin';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  return repo;
}

describe('a grant covers the GPUs where the approver saw them', () => {
  it.each(variants)('$name', async (v) => {
    const repo = await granted(v);
    repo.push(NEWER_SHA, { ...repo.pr.headFiles, [QUEUE_FILE]: queue(v.pushed) });
    expectGrantKeptOrLapsed(repo, await reviewPush(h, repo), v.names);
  });
});
