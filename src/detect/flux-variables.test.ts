import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from './detect-changes.js';
import { substitute } from './flux-variables.js';
import { listingPr } from '../../test/detect/listing-tree.js';
import type { Tree } from '../../test/detect/listing-tree.js';

/**
 * A Flux post-build variable that sets a GPU field in a file the pull request does not touch: the
 * change is counted in that file, or not followed on the changed variable; never "no change". Generated
 * over where the variable is set, how it is referenced, what it sets, and how the Kustomization
 * reaches the file.
 */

type Source = 'configmap' | 'secret-string' | 'secret-data' | 'own-substitute';
type Consumer =
  'time-slicing' | 'cluster-queue' | 'node-pool' | 'unknown-resource-queue' | 'unread-gpu-object' | 'group-of-a-class-elsewhere';
type Reach = 'path' | 'component-by-patch' | 'no-kustomization';

const CONSUMERS: Record<Exclude<Consumer, keyof typeof UNCOUNTED>, (ref: string) => string> = {
  'time-slicing': (ref) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: time-slicing-config
  namespace: gpu-operator
data:
  any: |-
    version: v1
    sharing:
      timeSlicing:
        resources:
          - name: nvidia.com/gpu
            replicas: ${ref}
`,
  'cluster-queue': (ref) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${ref}
`,
  'node-pool': (ref) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["g5.xlarge"]
  limits:
    nvidia.com/gpu: ${ref}
`,
};

/**
 * Consumers whose GPUs no reader counts: a quota of a resource not known to be GPUs, an object no
 * reader takes, a group a reader names not followed (its machines' class is in another file).
 */
const UNCOUNTED: Record<'unknown-resource-queue' | 'unread-gpu-object' | 'group-of-a-class-elsewhere', (ref: string) => string> = {
  'unknown-resource-queue': (ref) => CONSUMERS['cluster-queue'](ref).replace(/nvidia\.com\/gpu/g, 'example.com/gpu'),
  'unread-gpu-object': (ref) => `apiVersion: gpu.example.com/v1
kind: GpuReservation
metadata:
  name: team-a
spec:
  acceleratorType: nvidia-h100-80gb
  count: ${ref}
`,
  'group-of-a-class-elsewhere': (ref) => `apiVersion: deckhouse.io/v1
kind: NodeGroup
metadata:
  name: worker
spec:
  nodeType: CloudEphemeral
  cloudInstances:
    classReference:
      kind: AWSInstanceClass
      name: worker
    maxPerZone: ${ref}
    minPerZone: 1
    zones: [eu-central-1a]
`,
};

const KUSTOMIZATION = (body: string) => `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${body}`;

function fluxKustomization(source: Source, name: string, value: string | null, extra = ''): string {
  const from =
    source === 'own-substitute'
      ? `    substitute:\n      ${name}: "${value ?? ''}"\n`
      : `    substituteFrom:\n      - kind: ${source === 'configmap' ? 'ConfigMap' : 'Secret'}\n        name: cluster-vars\n`;
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: gpu
  namespace: flux-system
spec:
  interval: 10m
  sourceRef:
    kind: GitRepository
    name: flux-system
  path: ./infra/gpu
  prune: true
${extra}  postBuild:
${from}`;
}

function vars(source: Source, name: string, value: string, other: string): string {
  if (source === 'configmap')
    return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-vars\ndata:\n  kafka_version: "${other}"\n  ${name}: "${value}"\n`;
  if (source === 'secret-string')
    return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-vars\nstringData:\n  kafka_version: "${other}"\n  ${name}: "${value}"\n`;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-vars\ndata:\n  kafka_version: ${b64(other)}\n  ${name}: ${b64(value)}\n`;
}

interface Shape {
  source: Source;
  consumer: Consumer;
  reach: Reach;
  name: string;
  ref: (name: string) => string;
}

/** The tree with the variable at `value` (and an unrelated variable at `other`), and the file that sets it. */
function tree(s: Shape, value: string, other = '3.1'): { files: Tree; changed: string } {
  const consumer = (
    s.consumer in UNCOUNTED ? UNCOUNTED[s.consumer as keyof typeof UNCOUNTED] : CONSUMERS[s.consumer as keyof typeof CONSUMERS]
  )(s.ref(s.name));
  const own = s.source === 'own-substitute';
  const files: Tree = {
    'clusters/c1/kustomization.yaml': KUSTOMIZATION(
      `resources:\n  - vars.yaml\n  - apps.yaml\n${s.reach === 'component-by-patch' ? 'patches:\n  - path: apps-patch.yaml\n' : ''}`,
    ),
    'clusters/c1/vars.yaml': vars(own ? 'configmap' : s.source, own ? 'unused' : s.name, own ? '1' : value, other),
    'clusters/c1/apps.yaml': fluxKustomization(s.source, s.name, own ? value : null),
    'infra/gpu/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n',
  };
  if (s.reach === 'component-by-patch') {
    files['clusters/c1/apps-patch.yaml'] =
      'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: gpu\n  namespace: flux-system\nspec:\n  components:\n    - ../sharing\n';
    files['infra/gpu/kustomization.yaml'] = KUSTOMIZATION('resources:\n  - deploy.yaml\n');
    files['infra/sharing/kustomization.yaml'] =
      'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - consumer.yaml\n';
    files['infra/sharing/consumer.yaml'] = consumer;
  } else {
    if (s.reach === 'path') files['infra/gpu/kustomization.yaml'] = KUSTOMIZATION('resources:\n  - deploy.yaml\n  - consumer.yaml\n');
    files['infra/gpu/consumer.yaml'] = consumer;
  }
  return { files, changed: own ? 'clusters/c1/apps.yaml' : 'clusters/c1/vars.yaml' };
}

const shape = fc.record({
  source: fc.constantFrom<Source>('configmap', 'secret-string', 'secret-data', 'own-substitute'),
  consumer: fc.constantFrom<Consumer>('time-slicing', 'cluster-queue', 'node-pool'),
  reach: fc.constantFrom<Reach>('path', 'component-by-patch', 'no-kustomization'),
  name: fc.constantFrom('gpu_time_slicing_replica_count', 'ts_replicas', 'quota', 'count', 'TEAM_A_LIMIT'),
  ref: fc.constantFrom(
    (n: string) => `\${${n}}`,
    (n: string) => `\${${n}:=9}`,
    (n: string) => `\${${n}:-9}`,
    (n: string) => `\${${n}=9}`,
  ),
});

describe('Flux post-build variables', () => {
  it('a raised variable is counted in the file it sets, and the variable file read', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 16 }), async (s, from, more) => {
        const base = tree(s, String(from));
        const head = tree(s, String(from + more));
        const r = await detectChanges(listingPr(base.files, head.files));
        const state = r.coverage.find((c) => c.file === base.changed)?.state;
        const counted = r.changes.some((c) => c.gpusBefore === from && c.gpusAfter === from + more);
        // Every shape generated here is one the review substitutes: counted, and the file read.
        expect(counted).toBe(true);
        expect(state).toBe('read');
        // Never another count.
        for (const c of r.changes) expect([c.gpusBefore, c.gpusAfter]).toEqual([from, from + more]);
      }),
      { numRuns: 40 },
    );
  });

  it('a variable that sets no GPU field, beside one that does, stays no change', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 1, max: 16 }), async (s, n) => {
        const base = tree(s, String(n), '3.1');
        const head = tree(s, String(n), '3.2');
        const r = await detectChanges(listingPr(base.files, head.files));
        expect(r.changes).toEqual([]);
        expect(r.coverage.find((c) => c.file === base.changed)?.state).not.toBe('not-followed');
      }),
      { numRuns: 24 },
    );
  });

  it('a variable file moved or deleted by the pull request gives its values to no default: no count, not followed', async () => {
    await fc.assert(
      fc.asyncProperty(
        shape.filter((s) => s.source !== 'own-substitute'),
        fc.integer({ min: 1, max: 16 }),
        fc.constantFrom('moved', 'deleted'),
        async (s, n, how) => {
          const base = tree(s, String(n));
          const head = { ...base.files };
          const text = head[base.changed];
          delete head[base.changed];
          if (how === 'moved' && text !== undefined) head['clusters/c1/renamed-vars.yml'] = text;
          const r = await detectChanges(listingPr(base.files, head));
          // Whatever Flux then does (the values from elsewhere, or a failed build), no count is read from a default.
          expect(r.changes).toEqual([]);
          expect(r.coverage.find((c) => c.file === base.changed)?.state).toBe('not-followed');
        },
      ),
      { numRuns: 24 },
    );
  });

  it('a variable given to an object whose GPUs no reader counts is not followed on the variable, never no change', async () => {
    await fc.assert(
      fc.asyncProperty(
        shape,
        fc.constantFrom<Consumer>('unknown-resource-queue', 'unread-gpu-object', 'group-of-a-class-elsewhere'),
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 1, max: 16 }),
        async (s, consumer, from, more) => {
          const base = tree({ ...s, consumer }, String(from));
          const head = tree({ ...s, consumer }, String(from + more));
          const r = await detectChanges(listingPr(base.files, head.files));
          expect(r.changes).toEqual([]);
          expect(r.coverage.find((c) => c.file === base.changed)?.state).toBe('not-followed');
        },
      ),
      { numRuns: 32 },
    );
  });

  it('a form the review does not substitute, or an encrypted value, is not followed', async () => {
    for (const ref of [(n: string) => `\${${n}:0:2}`, (n: string) => `\${${n}/1/2}`]) {
      const s: Shape = { source: 'configmap', consumer: 'cluster-queue', reach: 'path', name: 'quota', ref };
      const r = await detectChanges(listingPr(tree(s, '4').files, tree(s, '8').files));
      expect(r.changes).toEqual([]);
      expect(r.coverage.find((c) => c.file === 'clusters/c1/vars.yaml')?.state).toBe('not-followed');
    }
    const s: Shape = { source: 'secret-string', consumer: 'node-pool', reach: 'path', name: 'quota', ref: (n) => `\${${n}}` };
    const r = await detectChanges(listingPr(tree(s, 'ENC[AES256_GCM,data:Zm9v]').files, tree(s, 'ENC[AES256_GCM,data:YmFy]').files));
    expect(r.coverage.find((c) => c.file === 'clusters/c1/vars.yaml')?.state).toBe('not-followed');
  });

  it('substitutes as Flux does: a value, else the default of `:=`/`:-` when unset or empty, else the reference', () => {
    const v = new Map([
      ['a', { raw: '4', value: '4' }],
      ['e', { raw: '', value: '' }],
      ['s', { raw: 'ENC[x]', value: null }],
    ]);
    expect(substitute('${a} ${a:=9} ${e:=9} ${e=9} ${u:-7} ${u} ${s}', v)).toBe('4 4 9  7 ${u} ${s}');
  });
});
