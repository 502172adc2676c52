import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { memoryChangeSet } from '../memory-change-set.js';

/**
 * YAML 1.1 spellings of a capacity field, each read as the tool that applies it reads it: go-yaml
 * v2 behind sigs.k8s.io/yaml (kubectl, eksctl, Argo CD, Flux) turns the scalar into JSON, then the
 * API server (or eksctl's Go types) decodes it as the field's type. Each spelling must end with
 * that count, or not followed; a spelling the applier refuses must never be counted.
 *
 * - `quantity` (a ClusterQueue's nominalQuota, a NodePool's limits): a JSON number or a string
 *   Kubernetes parses as a quantity (`"010"` is 10, decimal).
 * - `int` (eksctl's desiredCapacity, a MachineDeployment's replicas): a JSON number with no
 *   fraction; a string is refused.
 */
type FieldType = 'quantity' | 'int';

/** What the applier makes of a spelling: a count, the field left unset, or a refusal. */
type Reading = number | 'unset' | 'refused';

interface Spelling {
  name: string;
  write: (n: number) => string;
  read: (n: number, type: FieldType) => Reading;
}

const same = (n: number) => n;
const SPELLINGS: Spelling[] = [
  { name: 'decimal', write: String, read: same },
  // go-yaml v2 resolves plain integers with strconv.ParseInt(s, 0, 64): a leading 0 is octal.
  { name: 'leading-zero octal', write: (n) => `0${n.toString(8)}`, read: same },
  { name: '0o octal', write: (n) => `0o${n.toString(8)}`, read: same },
  { name: 'hexadecimal', write: (n) => `0x${n.toString(16).toUpperCase()}`, read: same },
  { name: 'underscores', write: (n) => String(n).split('').join('_'), read: same },
  { name: 'signed', write: (n) => `+${n}`, read: same },
  // A float with no fraction is a whole JSON number (json.Marshal(4.0) is `4`).
  { name: 'whole float', write: (n) => `${n}.0`, read: same },
  // A quantity may be fractional (`3.5` GPUs of quota); an int may not.
  { name: 'fraction', write: (n) => `${n}.5`, read: (n, t) => (t === 'int' ? 'refused' : n + 0.5) },
  { name: 'quoted', write: (n) => `"${n}"`, read: (n, t) => (t === 'quantity' ? n : 'refused') },
  // A string is no number: Kubernetes parses "010" as the quantity 10, decimal.
  { name: 'quoted leading zero', write: (n) => `"0${n}"`, read: (n, t) => (t === 'quantity' ? n : 'refused') },
  { name: 'int tag', write: (n) => `!!int "${n}"`, read: same },
  { name: 'null', write: () => '~', read: () => 'unset' },
  { name: 'boolean yes', write: () => 'yes', read: () => 'refused' },
  { name: 'boolean on', write: () => 'on', read: () => 'refused' },
  { name: 'boolean off', write: () => 'off', read: () => 'refused' },
  // go-yaml v2 has no sexagesimal numbers: `1:30` is the string "1:30", no quantity and no int.
  { name: 'sexagesimal', write: (n) => `1:${String(n % 60).padStart(2, '0')}`, read: () => 'refused' },
];

interface Field {
  kind: string;
  path: string;
  type: FieldType;
  /** The file with the field spelt `v`; `null` leaves the field out. */
  text: (v: string | null) => string;
  /** GPUs the declaration holds when the field reads `n`. */
  gpus: (n: number) => number;
}

const FIELDS: Field[] = [
  {
    kind: 'kueue-cluster-queue',
    path: 'queues/research.yaml',
    type: 'quantity',
    text: (v) =>
      `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: research\nspec:\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n${v === null ? '' : `              nominalQuota: ${v}\n`}`,
    gpus: same,
  },
  {
    kind: 'karpenter-nodepool',
    path: 'karpenter/gpu.yaml',
    type: 'quantity',
    text: (v) =>
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: gpu\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      requirements:\n        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: ["p4d.24xlarge"]\n  limits:\n    cpu: 1000\n${v === null ? '' : `    nvidia.com/gpu: ${v}\n`}`,
    gpus: same,
  },
  {
    kind: 'eksctl-nodegroup',
    path: 'eks/cluster.yaml',
    type: 'int',
    text: (v) =>
      `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: ml\n  region: us-west-2\nmanagedNodeGroups:\n  - name: gpu\n    instanceType: p4d.24xlarge\n    minSize: 0\n${v === null ? '' : `    maxSize: ${v}\n`}`,
    gpus: (n) => n * 8,
  },
  {
    kind: 'capi-machinedeployment',
    path: 'capi/gpu.yaml',
    type: 'int',
    text: (v) =>
      `apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineDeployment\nmetadata:\n  name: gpu\n  annotations:\n    capacity.cluster-autoscaler.kubernetes.io/gpu-count: "8"\nspec:\n  clusterName: ml\n${v === null ? '' : `  replicas: ${v}\n`}  template:\n    spec:\n      clusterName: ml\n      bootstrap:\n        configRef:\n          apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\n          kind: KubeadmConfigTemplate\n          name: gpu\n      infrastructureRef:\n        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\n        kind: AWSMachineTemplate\n        name: gpu\n`,
    gpus: (n) => n * 8,
  },
];

/** What the review says of a change from `base` to `head`: the declaration's GPUs before and after, and whether it is not followed. */
async function review(field: Field, base: string | null, head: string | null) {
  const result = await detectChanges(memoryChangeSet({ [field.path]: field.text(base) }, { [field.path]: field.text(head) }));
  const rows = result.changes.filter((c) => c.kind === field.kind).map((c) => [c.gpusBefore, c.gpusAfter]);
  const flagged =
    result.coverage.some((c) => c.state === 'not-followed') ||
    result.diagnostics.some((d) => d.severity === 'error' && d.file === field.path);
  return { rows, flagged };
}

describe('YAML 1.1 spellings of capacity fields, as the applier reads them', () => {
  it.each(FIELDS.map((f) => [f.kind, f] as const))('%s: each spelling is counted as applied, or not followed', async (_kind, field) => {
    // The same field left out, for a spelling that leaves it unset.
    const unset = await review(field, '2', null);
    // Every spelling, each with a few counts drawn at random.
    for (const spelling of SPELLINGS) {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 3, max: 48 }), async (n) => {
          const written = spelling.write(n);
          const reading = spelling.read(n, field.type);
          const { rows, flagged } = await review(field, '2', written);
          const seen = `${field.kind} ${spelling.name} \`${written}\`: ${JSON.stringify(rows)}${flagged ? ' (not followed)' : ''}`;
          if (reading === 'refused') {
            // Refused by the applier: nothing changes, and a count read from it would be made up.
            expect(rows, seen).toEqual([]);
            expect(flagged, seen).toBe(true);
          } else if (reading === 'unset') {
            if (!flagged) expect(rows, seen).toEqual(unset.rows);
          } else if (!flagged) expect(rows, seen).toEqual([[field.gpus(2), field.gpus(reading)]]);
          else for (const [, after] of rows) expect(after, seen).toBe(field.gpus(reading));
        }),
        { numRuns: 3 },
      );
    }
  });
});
