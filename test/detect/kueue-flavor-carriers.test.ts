import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { ChangeSet, TreeReader } from '../../src/domain/index.js';
import { normaliseGpuModel } from '../../src/domain/index.js';
import { detectChanges } from '../../src/detect/detect-changes.js';

/**
 * A ResourceFlavor changed apart from its queues is read in whatever carrier kubectl, Terraform or
 * a script applies it from, the way the rest of detection reads Kubernetes objects there: each
 * carrier × each edit of the flavor either shows as the change of model it is, or is not
 * followed, never as no change. Generated over carriers, spellings of the flavor and edits.
 */

type Tree = Record<string, string>;
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

function reader(label: string, tree: Tree): TreeReader {
  const folders = new Set<string>();
  for (const p of Object.keys(tree)) for (let d = dirOf(p); d !== ''; d = dirOf(d)) folders.add(d);
  return {
    label,
    read: (p) => Promise.resolve(tree[p] ?? null),
    list: (dir) => Promise.resolve(Object.keys(tree).filter((p) => dirOf(p) === dir)),
    dirs: (dir) => Promise.resolve([...folders].filter((d) => dirOf(d) === dir)),
  };
}

function pr(base: Tree, head: Tree): ChangeSet {
  const paths = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((p) => base[p] !== head[p]).sort();
  return { base: reader('base', base), head: reader('head', head), changedPaths: () => Promise.resolve(paths) };
}

const LABEL = 'cloud.google.com/gke-accelerator';

/** The flavor as YAML, its name spelt plainly, as a block scalar, or with a Go-YAML tag; tolerations with go-yaml numbers. */
const spellings = {
  plain: (name: string) => name,
  folded: (name: string) => `>-\n    ${name}`,
  literal: (name: string) => `|-\n    ${name}`,
  tagged: (name: string) => `!!str ${name}`,
  // Anchored, and an annotation its alias: go-yaml and Terraform's yamldecode resolve both.
  aliased: (name: string) => `&flavor-name ${name}\n  annotations:\n    example.com/flavor: *flavor-name`,
} as const;
type Spelling = keyof typeof spellings;

function flavorYaml(name: string, labels: Record<string, string>, spelling: Spelling): string {
  const lines = Object.entries(labels).map(([k, v]) => `    ${k}: ${v}\n`);
  return `apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: ${spellings[spelling](name)}\nspec:\n  nodeLabels:\n${lines.join('')}  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n    tolerationSeconds: 0o20\n`;
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
const asObject = (yaml: string) => JSON.stringify(parseDocument(yaml, { version: '1.1' }).toJS(), null, 2);

/** Where the flavor is carried, and the file that carries it. */
const carriers = {
  yaml: { file: 'flavors/gpu.yaml', wrap: (y: string) => y },
  list: {
    file: 'flavors/gpu.yaml',
    wrap: (y: string) => `apiVersion: v1\nkind: List\nitems:\n- ${y.trimEnd().split('\n').join('\n  ')}\n`,
  },
  'kubernetes-manifest': {
    file: 'infra/kueue.tf',
    wrap: (y: string) => `resource "kubernetes_manifest" "gpu" {\n  manifest = ${asObject(y)}\n}\n`,
  },
  yamlencode: {
    file: 'infra/kueue.tf',
    wrap: (y: string) => `resource "kubectl_manifest" "gpu" {\n  yaml_body = yamlencode(${asObject(y)})\n}\n`,
  },
  heredoc: {
    file: 'infra/kueue.tf',
    wrap: (y: string) => `resource "kubectl_manifest" "gpu" {\n  yaml_body = <<-YAML\n${indent(y)}\n  YAML\n}\n`,
  },
  yamldecode: {
    file: 'infra/kueue.tf',
    wrap: (y: string) => `resource "kubernetes_manifest" "gpu" {\n  manifest = yamldecode(<<-YAML\n${indent(y)}\n  YAML\n  )\n}\n`,
  },
  script: { file: 'scripts/apply-flavors.sh', wrap: (y: string) => `#!/bin/sh\nkubectl apply -f - <<EOF\n${y}EOF\n` },
} as const;
type Carrier = keyof typeof carriers;

const queue = (flavorName: string, quota: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["nvidia.com/gpu"]
    flavors:
    - name: ${flavorName}
      resources:
      - name: nvidia.com/gpu
        nominalQuota: ${quota}
`;

const notFollowed = (r: Awaited<ReturnType<typeof detectChanges>>, file: string) =>
  r.coverage.find((c) => c.file === file)?.state === 'not-followed';

const arbCarrier = fc.constantFrom(...(Object.keys(carriers) as Carrier[]));
// HCL objects carry data, not YAML spellings: the spellings apply to the carriers of YAML text.
const arbSpelling = fc.constantFrom(...(Object.keys(spellings) as Spelling[]));
const arbQuota = fc.integer({ min: 1, max: 64 });

describe('a ResourceFlavor changed apart from its queues, in any carrier', () => {
  it('a swap of GPU model is read as that swap at the quota of the queue naming it', async () => {
    await fc.assert(
      fc.asyncProperty(arbCarrier, arbSpelling, arbQuota, async (carrier, spelling, quota) => {
        const { file, wrap } = carriers[carrier];
        const queues: Tree = { 'queues/team-a.yaml': queue('gpu', quota) };
        const base = { ...queues, [file]: wrap(flavorYaml('gpu', { [LABEL]: 'nvidia-tesla-a100' }, spelling)) };
        const head = { ...queues, [file]: wrap(flavorYaml('gpu', { [LABEL]: 'nvidia-h100-80gb' }, spelling)) };
        const r = await detectChanges(pr(base, head));
        const rows = r.changes.map((c) => [c.name, c.gpuModelBefore, c.gpuModel, c.gpusBefore, c.gpusAfter]);
        expect(rows).toEqual([['team-a', normaliseGpuModel('nvidia-tesla-a100'), normaliseGpuModel('nvidia-h100-80gb'), quota, quota]]);
      }),
      { numRuns: 28 },
    );
  }, 240_000);

  it('a GPU label removed, or the flavor renamed from under its queue, is not followed', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbCarrier,
        arbSpelling,
        fc.constantFrom('label-removed', 'renamed'),
        arbQuota,
        async (carrier, spelling, edit, quota) => {
          const { file, wrap } = carriers[carrier];
          const queues: Tree = { 'queues/team-a.yaml': queue('gpu', quota) };
          const before = flavorYaml('gpu', { [LABEL]: 'nvidia-l4', pool: 'gpu' }, spelling);
          const after =
            edit === 'renamed'
              ? flavorYaml('gpu-v2', { [LABEL]: 'nvidia-l4', pool: 'gpu' }, spelling)
              : flavorYaml('gpu', { pool: 'gpu' }, spelling);
          const r = await detectChanges(pr({ ...queues, [file]: wrap(before) }, { ...queues, [file]: wrap(after) }));
          expect(r.changes).toEqual([]);
          expect(notFollowed(r, file)).toBe(true);
        },
      ),
      { numRuns: 28 },
    );
  }, 240_000);

  it('a flavor Terraform cannot tell statically (for_each over a variable) is not followed', async () => {
    const queues: Tree = { 'queues/team-a.yaml': queue('gpu', 8) };
    const tf = (model: string) =>
      `variable "flavors" {}\nresource "kubernetes_manifest" "gpu" {\n  for_each = var.flavors\n  manifest = {\n    apiVersion = "kueue.x-k8s.io/v1beta1"\n    kind = "ResourceFlavor"\n    metadata = { name = each.key }\n    spec = { nodeLabels = { "${LABEL}" = "${model}" } }\n  }\n}\n`;
    const r = await detectChanges(
      pr({ ...queues, 'infra/kueue.tf': tf('nvidia-l4') }, { ...queues, 'infra/kueue.tf': tf('nvidia-h100-80gb') }),
    );
    expect(r.changes).toEqual([]);
    expect(notFollowed(r, 'infra/kueue.tf')).toBe(true);
  }, 60_000);

  it('a GPU label removed from a flavor beside a changed queue that names it is not followed', async () => {
    const before = flavorYaml('gpu', { [LABEL]: 'nvidia-l4', pool: 'gpu' }, 'plain');
    const after = flavorYaml('gpu', { pool: 'gpu' }, 'plain');
    const r = await detectChanges(
      pr(
        { 'kueue/queue.yaml': queue('gpu', 8), 'kueue/flavor.yaml': before },
        { 'kueue/queue.yaml': `# team a\n${queue('gpu', 8)}`, 'kueue/flavor.yaml': after },
      ),
    );
    expect(r.changes).toEqual([]);
    expect(notFollowed(r, 'kueue/flavor.yaml')).toBe(true);
  }, 60_000);
});

describe('a kustomize patch of a ResourceFlavor', () => {
  const kustomization =
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- gpu.yaml\npatches:\n- path: gpu-patch.yaml\n  target:\n    kind: ResourceFlavor\n    name: gpu\n';
  const tree = (patch: string): Tree => ({
    'queues/team-a.yaml': queue('gpu', 8),
    'kueue/kustomization.yaml': kustomization,
    'kueue/gpu.yaml': flavorYaml('gpu', { [LABEL]: 'nvidia-l4' }, 'plain'),
    'kueue/gpu-patch.yaml': patch,
  });
  // Selected by its target, the patch's own name is kustomize's to replace: no queue names it.
  const patch = (labels: Record<string, string>, effect: string) =>
    flavorYaml('not-important', labels, 'plain').replace('    operator: Exists\n', `    operator: Exists\n    effect: ${effect}\n`);

  it('is not a flavor of its own: a taint changed on the same labels is no change, and followed', async () => {
    const r = await detectChanges(
      pr(tree(patch({ [LABEL]: 'nvidia-l4' }, 'NoSchedule')), tree(patch({ [LABEL]: 'nvidia-l4' }, 'NoExecute'))),
    );
    expect(r.changes).toEqual([]);
    expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  }, 60_000);

  it('changing the node labels is not followed', async () => {
    const r = await detectChanges(
      pr(tree(patch({ [LABEL]: 'nvidia-l4' }, 'NoSchedule')), tree(patch({ [LABEL]: 'nvidia-h100-80gb' }, 'NoSchedule'))),
    );
    expect(notFollowed(r, 'kueue/gpu-patch.yaml')).toBe(true);
  }, 60_000);
});

describe('a ResourceFlavor Terraform renders from a variable', () => {
  const manifest = `variable "accelerator" {}\nresource "kubernetes_manifest" "gpu" {\n  manifest = {\n    apiVersion = "kueue.x-k8s.io/v1beta1"\n    kind = "ResourceFlavor"\n    metadata = { name = "gpu" }\n    spec = { nodeLabels = { "${LABEL}" = var.accelerator } }\n  }\n}\n`;
  const tree = (accelerator: string): Tree => ({
    'queues/team-a.yaml': queue('gpu', 8),
    'infra/kueue.tf': manifest,
    'infra/terraform.tfvars': `accelerator = "${accelerator}"\n`,
  });

  it('changes model with the tfvars value, the manifest unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(['nvidia-l4', 'nvidia-h100-80gb'], ['nvidia-tesla-t4', 'nvidia-tesla-a100']), async ([from, to]) => {
        const r = await detectChanges(pr(tree(from), tree(to)));
        const rows = r.changes.map((c) => [c.name, c.gpuModelBefore, c.gpuModel, c.gpusBefore, c.gpusAfter]);
        expect(rows).toEqual([['team-a', normaliseGpuModel(from), normaliseGpuModel(to), 8, 8]]);
      }),
      { numRuns: 4 },
    );
  }, 60_000);

  it('set to a value no GPU label names is not followed, at the changed file', async () => {
    const r = await detectChanges(pr(tree('nvidia-l4'), tree('')));
    expect(r.changes).toEqual([]);
    expect(notFollowed(r, 'infra/terraform.tfvars')).toBe(true);
  }, 60_000);
});
