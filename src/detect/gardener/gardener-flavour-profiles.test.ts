import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A Gardener Shoot on a provider whose flavours are named by the cloud's operator (OpenStack,
 * STACKIT, IronCore): a GPU flavour need not say GPU (`g1.xlarge`), and only the CloudProfile's
 * `machineTypes[].gpu` tells. Generated: the provider, the flavour's name, where the profile is
 * (absent, beside the Shoot, anywhere in the tree) and the edit. With the profile, the pool is
 * counted; without it, a pool whose bounds change is not followed, and one edited elsewhere (a
 * label) is no change.
 */

type Where = 'absent' | 'beside' | 'far';
const SHOOT = 'clusters/prod/ml/shoot.yaml';
const FAR = ['landscape/garden/cloudprofiles/openstack.yaml', 'infra/gardener/config/profiles/p.yaml', 'a/b/c/d/e/profile.yaml'];

function shoot(provider: string, type: string, max: number, team: string): string {
  return `apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata:
  name: ml
  namespace: garden-ml
spec:
  cloudProfile:
    kind: CloudProfile
    name: ${provider}-prod
  region: eu-1
  provider:
    type: ${provider}
    workers:
      - name: accel
        machine:
          type: ${type}
        minimum: 0
        maximum: ${String(max)}
        labels:
          team: ${team}
`;
}

function profile(provider: string, type: string, gpus: number): string {
  return `apiVersion: core.gardener.cloud/v1beta1
kind: CloudProfile
metadata:
  name: ${provider}-prod
spec:
  type: ${provider}
  machineTypes:
    - name: m1.large
      cpu: "4"
      memory: 16Gi
      gpu: "0"
    - name: ${type}
      cpu: "16"
      memory: 64Gi
      gpu: "${String(gpus)}"
`;
}

const providers = fc.constantFrom('openstack', 'stackit', 'ironcore');
const flavours = fc.constantFrom('g1.xlarge', 'c3.4xlarge.acc', 'flavor-xl-2', 'bm.large');

function tree(provider: string, type: string, max: number, team: string, where: Where, far: string, gpus: number): Tree {
  const t: Tree = { [SHOOT]: shoot(provider, type, max, team) };
  if (where === 'beside') t['clusters/prod/ml/profile.yaml'] = profile(provider, type, gpus);
  if (where === 'far') t[far] = profile(provider, type, gpus);
  return t;
}

async function run(base: Tree, head: Tree) {
  const r = await detectPr(base, head);
  return { rows: changeRows(r).map((row) => [row[0], row[2], row[3]]), state: r.coverage.find((c) => c.file === SHOOT)?.state };
}

describe('a Shoot worker of a flavour only its CloudProfile says the GPUs of', () => {
  it('is counted from the CloudProfile, beside the Shoot or anywhere in the tree', async () => {
    await fc.assert(
      fc.asyncProperty(
        providers,
        flavours,
        fc.constantFrom<Where>('beside', 'far'),
        fc.constantFrom(...FAR),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 10 }),
        async (provider, type, where, far, gpus, max) => {
          const base = tree(provider, type, max, 'a', where, far, gpus);
          const head = tree(provider, type, max + 2, 'a', where, far, gpus);
          expect(await run(base, head)).toEqual({ rows: [['gardener-worker', max * gpus, (max + 2) * gpus]], state: 'read' });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('with no CloudProfile in the tree, its bound raised is not followed', async () => {
    await fc.assert(
      fc.asyncProperty(providers, flavours, fc.integer({ min: 0, max: 10 }), async (provider, type, max) => {
        const r = await run(tree(provider, type, max, 'a', 'absent', '', 0), tree(provider, type, max + 3, 'a', 'absent', '', 0));
        expect(r).toEqual({ rows: [], state: 'not-followed' });
      }),
      { numRuns: 15 },
    );
  });

  it('with no CloudProfile in the tree, an edit that leaves its type and bounds is no change', async () => {
    await fc.assert(
      fc.asyncProperty(providers, flavours, fc.integer({ min: 0, max: 10 }), async (provider, type, max) => {
        const r = await run(tree(provider, type, max, 'a', 'absent', '', 0), tree(provider, type, max, 'b', 'absent', '', 0));
        expect(r.rows).toEqual([]);
        expect(r.state).not.toBe('not-followed');
      }),
      { numRuns: 10 },
    );
  });

  it('a flavour its CloudProfile gives no GPU, anywhere in the tree, is no change', async () => {
    const r = await run(
      tree('openstack', 'g1.xlarge', 2, 'a', 'far', FAR[0] ?? '', 0),
      tree('openstack', 'g1.xlarge', 6, 'a', 'far', FAR[0] ?? '', 0),
    );
    expect(r.rows).toEqual([]);
    expect(r.state).not.toBe('not-followed');
  });
});
