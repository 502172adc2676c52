import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/**
 * A Crossplane claim or composite resource whose Composition in the repository names GPUs
 * (crossplane-claims.ts): its count changed names no GPU, and must not pass as no capacity.
 */

const XRD = (claims: boolean) => `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xnodepools.platform.example.org
spec:
  group: platform.example.org
  names:
    kind: XNodePool
    plural: xnodepools
${claims ? '  claimNames:\n    kind: NodePool\n    plural: nodepools\n' : ''}  versions:
    - name: v1alpha1
      served: true
      referenceable: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                parameters:
                  type: object
                  properties:
                    count:
                      type: integer
                    instanceType:
                      type: string
                      default: MACHINE_DEFAULT
`;

/** A patch-and-transform Composition with its machine type in the base, and a function's inline input. */
const COMPOSITIONS: readonly (readonly [what: string, text: (machine: string) => string])[] = [
  [
    'patch-and-transform base',
    (machine) => `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: nodepool-eks
spec:
  compositeTypeRef:
    apiVersion: platform.example.org/v1alpha1
    kind: XNodePool
  mode: Pipeline
  pipeline:
    - step: patch-and-transform
      functionRef:
        name: function-patch-and-transform
      input:
        apiVersion: pt.fn.crossplane.io/v1beta1
        kind: Resources
        resources:
          - name: nodegroup
            base:
              apiVersion: eks.aws.upbound.io/v1beta1
              kind: NodeGroup
              spec:
                forProvider:
                  instanceTypes: ["${machine}"]
                  scalingConfig:
                    - minSize: 0
                      maxSize: 1
                      desiredSize: 1
            patches:
              - type: FromCompositeFieldPath
                fromFieldPath: spec.parameters.count
                toFieldPath: spec.forProvider.scalingConfig[0].maxSize
`,
  ],
  [
    'KCL function input',
    (machine) => `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: nodepool-gke
spec:
  compositeTypeRef:
    apiVersion: platform.example.org/v1alpha1
    kind: XNodePool
  mode: Pipeline
  pipeline:
    - step: render
      functionRef:
        name: function-kcl
      input:
        apiVersion: krm.kcl.dev/v1alpha1
        kind: KCLInput
        spec:
          source: |
            oxr = option("params").oxr
            items = [{
                apiVersion: "container.gcp.upbound.io/v1beta1"
                kind: "NodePool"
                spec.forProvider: {
                    nodeCount: oxr.spec.parameters.count
                    nodeConfig: [{machineType: "${machine}"}]
                }
            }]
`,
  ],
];

/** Where a package keeps its files: [definition, composition, claim]. */
const LAYOUTS: readonly (readonly [string, string, string])[] = [
  ['apis/nodepool/definition.yaml', 'apis/nodepool/composition.yaml', 'examples/nodepool.yaml'],
  ['package/xrd.yaml', 'package/compositions/eks.yaml', 'claims/team-a/nodepool.yaml'],
  ['platform/definition.yaml', 'platform/composition.yaml', 'platform/claim.yaml'],
  // A platform repository: the package in a tree of its own, three folders down, the claims elsewhere.
  ['platform/crossplane/apis/definition.yaml', 'platform/crossplane/apis/gpu/composition.yaml', 'apps/team-a/ml/claim.yaml'],
  // Deeper than the search around the claim: found by the index of the whole tree's Compositions.
  [
    'infra/platform/crossplane/packages/compute/apis/definition.yaml',
    'infra/platform/crossplane/packages/compute/apis/nodepool/compositions/aws/gpu.yaml',
    'apps/team-a/ml/claim.yaml',
  ],
  ['deploy/crossplane/definition.yaml', 'deploy/crossplane/x/y/z/w/v/composition.yaml', 'deploy/claims/a/b/c/d/claim.yaml'],
];

const object = (claim: boolean, count: number) => `apiVersion: platform.example.org/v1alpha1
kind: ${claim ? 'NodePool' : 'XNodePool'}
metadata:
  name: team-a
spec:
  parameters:
    count: ${String(count)}
`;

const states = async (base: Tree, head: Tree) => {
  const r = await detectPr(base, head);
  return { changes: r.changes.length, states: r.coverage.map((c) => [c.file, c.state]) };
};

describe('a Crossplane claim whose Composition names GPUs', () => {
  const cases = LAYOUTS.flatMap((layout) =>
    COMPOSITIONS.flatMap(([what, composition]) =>
      [true, false].map((claim) => [`${layout[2]}, ${what}, ${claim ? 'claim' : 'composite'}`, layout, composition, claim] as const),
    ),
  );
  it.each(cases)('%s: its count changed is not followed; on a CPU Composition, no change', async (_id, layout, composition, claim) => {
    const [definition, comp, file] = layout;
    for (const [machine, expected] of [
      ['p4d.24xlarge', 'not-followed'],
      ['a3-highgpu-8g', 'not-followed'],
      ['m6i.large', 'no change'],
    ] as const) {
      const base = {
        [definition]: XRD(claim).replace('MACHINE_DEFAULT', 'm6i.large'),
        [comp]: composition(machine),
        [file]: object(claim, 1),
      };
      const r = await states(base, { ...base, [file]: object(claim, 4) });
      // No change: no capacity, or read as an object of no GPUs (a claim kind some parser knows by name).
      expect(r.changes).toBe(0);
      if (expected === 'no change') expect(r.states.filter(([, state]) => state === 'not-followed')).toEqual([]);
      else expect(r.states).toEqual([[file, expected]]);
    }
  });

  it("a GPU machine type in the definition's default is the Composition's too", async () => {
    const base = {
      'apis/definition.yaml': XRD(true).replace('MACHINE_DEFAULT', 'g5.12xlarge'),
      'apis/composition.yaml': COMPOSITIONS[0]?.[1]('m6i.large') ?? '',
      'examples/claim.yaml': object(true, 1),
    };
    expect(await states(base, { ...base, 'examples/claim.yaml': object(true, 4) })).toEqual({
      changes: 0,
      states: [['examples/claim.yaml', 'not-followed']],
    });
  });

  it('another kind of the repository, and objects of other groups, are no change beside a GPU Composition', async () => {
    const app = (rev: string) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  source:\n    targetRevision: ${rev}\n`;
    const bucket = (n: number) =>
      `apiVersion: platform.example.org/v1alpha1\nkind: Bucket\nmetadata:\n  name: logs\nspec:\n  parameters:\n    versions: ${String(n)}\n`;
    const base = {
      'apis/definition.yaml': XRD(true).replace('MACHINE_DEFAULT', 'm6i.large'),
      'apis/composition.yaml': COMPOSITIONS[0]?.[1]('p4d.24xlarge') ?? '',
      'examples/app.yaml': app('v1'),
      'examples/bucket.yaml': bucket(1),
    };
    expect(await states(base, { ...base, 'examples/app.yaml': app('v2'), 'examples/bucket.yaml': bucket(2) })).toEqual({
      changes: 0,
      states: [
        ['examples/app.yaml', 'not-capacity'],
        ['examples/bucket.yaml', 'not-capacity'],
      ],
    });
  });

  it('past the bound of the walk of the tree, a claim of a group the repository defines is not followed', async () => {
    // More YAML files than the walk reads, in folders walked before the one holding the Composition.
    const filler: Tree = {};
    for (let i = 0; i < 650; i++)
      filler[`aa/f${String(Math.floor(i / 50))}/cm-${String(i)}.yaml`] =
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${String(i)}\n`;
    const base = {
      ...filler,
      'apps/a/b/c/d/definition.yaml': XRD(true).replace('MACHINE_DEFAULT', 'm6i.large'),
      'zz/a/b/c/d/e/composition.yaml': COMPOSITIONS[0]?.[1]('m6i.large') ?? '',
      'apps/a/b/c/d/e/claim.yaml': object(true, 1),
    };
    const r = await states(base, { ...base, 'apps/a/b/c/d/e/claim.yaml': object(true, 4) });
    expect(r).toEqual({ changes: 0, states: [['apps/a/b/c/d/e/claim.yaml', 'not-followed']] });
  });
});
