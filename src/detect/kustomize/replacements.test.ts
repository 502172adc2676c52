import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { stringify } from 'yaml';
import { splitFieldPath } from './field-path.js';

/**
 * `replacements` generated across their shapes: the capacity kind they write (a ClusterQueue
 * quota, a NodePool limit), the kind of the source (a ConfigMap, a Secret's stringData, a custom
 * object, a Deployment's number, a `sourceValue`), where the source is (beside the target or in a
 * base the overlay renders), how the field is named (an index, a list match, an escaped key), the
 * options (`delimiter`/`index`, `create`) and whether the replacement is inline or in a file. Each
 * variant must report the source's change as the object's, leave a change the replacement
 * overwrites as no change, and a CPU value beside it as no change.
 */

type TargetKind = 'queue' | 'pool';
type SourceKind = 'configmap' | 'secret' | 'custom' | 'deployment' | 'value';
type Where = 'beside' | 'base';
type Shape = 'plain' | 'delimiter' | 'create';

interface Variant {
  target: TargetKind;
  source: SourceKind;
  where: Where;
  shape: Shape;
  inFile: boolean;
  quoted: boolean;
}

const queue = (gpus: string, cpus: number, withGpu: boolean) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: training
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"]
      flavors:
        - name: h100
          resources:
            - name: cpu
              nominalQuota: ${cpus}
${withGpu ? `            - name: nvidia.com/gpu\n              nominalQuota: ${gpus}\n` : ''}`;

const pool = (gpus: string, cpus: number, withGpu: boolean) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  limits:
    cpu: ${cpus}
${withGpu ? `    nvidia.com/gpu: ${gpus}\n` : ''}  template:
    spec:
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["p5.48xlarge"]
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
`;

/** The source object holding `gpus` (and a CPU value beside it), and how a replacement selects it and its field. */
function sourceOf(
  kind: Exclude<SourceKind, 'value'>,
  gpus: number,
  cpus: number,
  shape: Shape,
): { file: string; select: Record<string, unknown> } {
  const raw = shape === 'delimiter' ? `h100:${gpus}` : String(gpus);
  const options = shape === 'delimiter' ? { options: { delimiter: ':', index: 1 } } : {};
  switch (kind) {
    case 'configmap':
      return {
        file: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sizes\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  gpus: "${raw}"\n  cpus: "${cpus}"\n`,
        select: { kind: 'ConfigMap', name: 'sizes', fieldPath: 'data.gpus', ...options },
      };
    case 'secret':
      return {
        file: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: sizes\nstringData:\n  gpus: "${raw}"\n  cpus: "${cpus}"\n`,
        select: { kind: 'Secret', name: 'sizes', fieldPath: 'stringData.gpus', ...options },
      };
    case 'custom':
      return {
        file: `apiVersion: platform.example.com/v1\nkind: TeamSizing\nmetadata:\n  name: team-a\nspec:\n  accelerators:\n    - name: h100\n      count: ${shape === 'delimiter' ? `"${raw}"` : raw}\n  cpus: ${cpus}\n`,
        select: {
          group: 'platform.example.com',
          kind: 'TeamSizing',
          name: 'team-a',
          fieldPath: 'spec.accelerators.[name=h100].count',
          ...options,
        },
      };
    case 'deployment':
      return {
        file: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: trainer\n  annotations:\n    sizing: "${raw}"\nspec:\n  replicas: ${cpus}\n  template:\n    spec:\n      containers:\n        - name: t\n          image: t:1\n`,
        select: { kind: 'Deployment', name: 'trainer', fieldPath: 'metadata.annotations.sizing', ...options },
      };
  }
}

function targetOf(v: Variant): { select: Record<string, string>; fieldPath: string; file: string } {
  if (v.target === 'queue')
    return {
      select: { kind: 'ClusterQueue', name: 'training' },
      fieldPath:
        v.shape === 'create'
          ? 'spec.resourceGroups.0.flavors.0.resources.[name=nvidia.com/gpu].nominalQuota'
          : 'spec.resourceGroups.0.flavors.[name=h100].resources.1.nominalQuota',
      file: 'queue.yaml',
    };
  return { select: { group: 'karpenter.sh', kind: 'NodePool' }, fieldPath: 'spec.limits.nvidia\\.com/gpu', file: 'pool.yaml' };
}

/**
 * The tree of a variant: `gpus` in the source, `written` in the target as its resources have it.
 * A Deployment as the source is read only with a kustomization read for another reason (`touch`
 * changes it): an object the cluster runs is not watched as a source (siblings.ts).
 */
function treeOf(v: Variant, gpus: number, cpus: number, written: number, touch = ''): Tree {
  const t = targetOf(v);
  const text = String(written);
  const targetText = (v.target === 'queue' ? queue : pool)(v.quoted ? `"${text}"` : text, 100, v.shape !== 'create');
  const replacement = {
    ...(v.source === 'value' ? { sourceValue: String(gpus) } : { source: sourceOf(v.source, gpus, cpus, v.shape).select }),
    targets: [{ select: t.select, fieldPaths: [t.fieldPath], ...(v.shape === 'create' ? { options: { create: true } } : {}) }],
  };
  const out: Tree = {};
  const overlay = v.where === 'base' ? 'env/overlays/prod' : 'env/base';
  const baseResources = [t.file, ...(v.source === 'value' ? [] : ['source.yaml'])];
  out[`env/base/${t.file}`] = targetText;
  if (v.source !== 'value') out['env/base/source.yaml'] = sourceOf(v.source, gpus, cpus, v.shape).file;
  const replacements = v.inFile ? [{ path: 'replacement.yaml' }] : [replacement];
  if (v.inFile) out[`${overlay}/replacement.yaml`] = stringify(replacement);
  if (v.where === 'base') {
    out['env/base/kustomization.yaml'] = stringify({ resources: baseResources });
    out[`${overlay}/kustomization.yaml`] = `${stringify({ resources: ['../../base'], replacements })}${touch}`;
  } else {
    out['env/base/kustomization.yaml'] = `${stringify({ resources: baseResources, replacements })}${touch}`;
  }
  return out;
}

function variants(): Variant[] {
  const out: Variant[] = [];
  for (const target of ['queue', 'pool'] as const)
    for (const source of ['configmap', 'secret', 'custom', 'deployment', 'value'] as const)
      for (const where of ['beside', 'base'] as const)
        for (const shape of ['plain', 'delimiter', 'create'] as const) {
          // A NodePool's limit is a map key: `create` there is the plain shape; a sourceValue has no delimiter.
          if ((target === 'pool' && shape === 'create') || (source === 'value' && shape === 'delimiter')) continue;
          const n = out.length;
          out.push({ target, source, where, shape, inFile: n % 3 === 1, quoted: n % 2 === 0 });
        }
  return out;
}

const name = (v: Variant) =>
  `${v.target} from ${v.source}, ${v.where}, ${v.shape}${v.inFile ? ', in a file' : ''}${v.quoted ? ', quoted' : ''}`;
const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
const gpuRows = (r: Awaited<ReturnType<typeof detectPr>>) => changeRows(r).map((row) => [row[1], row[2], row[3]]);

describe('replacements are computed as kustomize applies them', () => {
  const all = variants();
  it('covers every shape', () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
  });

  for (const v of all) {
    const objectName = v.target === 'queue' ? 'training' : 'gpu';
    it(`${name(v)}: a changed source is the object's change`, async () => {
      const touch = v.source === 'deployment' ? '# resized\n' : '';
      const r = await detectPr(treeOf(v, 8, 50, 0), treeOf(v, 16, 50, 0, touch));
      expect(gpuRows(r)).toEqual([[objectName, 8, 16]]);
      expect(notFollowed(r)).toEqual([]);
    });

    if (v.shape !== 'create')
      it(`${name(v)}: a change to the field the replacement overwrites is no change`, async () => {
        const r = await detectPr(treeOf(v, 8, 50, 4), treeOf(v, 8, 50, 32));
        expect(gpuRows(r)).toEqual([]);
        expect(notFollowed(r)).toEqual([]);
      });

    if (v.source !== 'value')
      it(`${name(v)}: a CPU value beside the source's, changed, is no change`, async () => {
        const r = await detectPr(treeOf(v, 8, 50, 0), treeOf(v, 8, 70, 0));
        expect(gpuRows(r)).toEqual([]);
        expect(notFollowed(r)).toEqual([]);
      });
  }
});

describe('replacements kustomize would refuse, or that are not worked out', () => {
  const base = (source: string, fieldPath: string): Tree => ({
    'q/kustomization.yaml': `resources:\n  - queue.yaml\n  - source.yaml\nreplacements:\n  - source: {kind: ConfigMap, name: sizes, fieldPath: ${fieldPath}}\n    targets:\n      - select: {kind: ClusterQueue}\n        fieldPaths: [spec.resourceGroups.0.flavors.0.resources.1.nominalQuota]\n`,
    'q/queue.yaml': queue('0', 100, true),
    'q/source.yaml': source,
  });
  const cm = (gpus: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sizes\ndata:\n  gpus: "${gpus}"\n  raw: |\n    gpus: ${gpus}\n`;

  it('a source field that is missing fails the build: the change is not "no change"', async () => {
    const r = await detectPr(base(cm('8'), 'data.missing'), base(cm('16'), 'data.missing'));
    expect(gpuRows(r)).toEqual([]);
    expect(r.diagnostics.some((d) => d.severity === 'error' && d.message.includes('fieldPath'))).toBe(true);
  });

  it('a value read differently by YAML 1.1 (010) leaves the count unknown and its source not followed', async () => {
    const tree = (gpus: string): Tree => ({
      ...base(cm(gpus), 'data.gpus'),
      'q/queue.yaml': queue('0', 100, true).replace('nominalQuota: 0', 'nominalQuota: 1'),
    });
    const r = await detectPr(tree('08'), tree('010'));
    expect(gpuRows(r)).toEqual([]);
    expect(notFollowed(r)).toContain('q/source.yaml');
  });

  it('a source that several objects match fails the build', async () => {
    const two = `${cm('8')}---\n${cm('8').replace('gpus: "8"', 'gpus: "9"').replace('namespace', 'x')}`;
    const r = await detectPr(base(two, 'data.gpus'), base(two.replace('"9"', '"10"'), 'data.gpus'));
    expect(r.diagnostics.some((d) => d.severity === 'error' && d.message.includes('several'))).toBe(true);
  });
});

describe('field paths split as kyaml splits them', () => {
  it.each([
    [
      'spec.limits.nvidia\\.com/gpu',
      [
        { kind: 'field', key: 'spec' },
        { kind: 'field', key: 'limits' },
        { kind: 'field', key: 'nvidia.com/gpu' },
      ],
    ],
    [
      'spec.limits.[nvidia.com/gpu]',
      [
        { kind: 'field', key: 'spec' },
        { kind: 'field', key: 'limits' },
        { kind: 'field', key: 'nvidia.com/gpu' },
      ],
    ],
    [
      'a.[name=nvidia.com/gpu].b',
      [
        { kind: 'field', key: 'a' },
        { kind: 'match', field: 'name', value: 'nvidia.com/gpu' },
        { kind: 'field', key: 'b' },
      ],
    ],
    ['/a/0', [{ kind: 'field', key: '/a/0' }]],
    ['a.0.*', [{ kind: 'field', key: 'a' }, { kind: 'index', index: 0 }, { kind: 'every' }]],
  ])('%s', (path, segments) => {
    expect(splitFieldPath(path)).toEqual(segments);
  });
});

describe('vars', () => {
  const tree = (gpus: string): Tree => ({
    'v/kustomization.yaml':
      'resources:\n  - queue.yaml\n  - sizes.yaml\nconfigurations:\n  - varref.yaml\nvars:\n  - name: GPUS\n    objref: {kind: ConfigMap, name: sizes, apiVersion: v1}\n    fieldref: {fieldpath: data.gpus}\n',
    'v/varref.yaml': 'varReference:\n  - kind: ClusterQueue\n    path: spec/resourceGroups/flavors/resources/nominalQuota\n',
    'v/queue.yaml': queue('"$(GPUS)"', 100, true),
    'v/sizes.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sizes\ndata:\n  gpus: "${gpus}"\n`,
  });

  it('a capacity object that names a var is count unknown, and the object the var reads is not followed where it changes', async () => {
    const r = await detectPr(tree('8'), tree('16'));
    expect(gpuRows(r)).toEqual([]);
    expect(notFollowed(r)).toContain('v/sizes.yaml');
  });

  it('and an unchanged input leaves nothing to follow', async () => {
    const r = await detectPr(tree('8'), { ...tree('8'), 'v/other.yaml': 'a: 1\n' });
    expect(notFollowed(r)).toEqual([]);
  });
});
