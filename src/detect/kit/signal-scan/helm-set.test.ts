import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../../test/detect/real-fixtures.js';

// A `helm_release` setting one chart value by its path: a GPU name set where a pod may run
// (tolerations, nodeSelector, affinity) is no capacity, whatever block form and nesting; one set
// anywhere else (a limit, a pool's size) is never passed as "no change".

/** [value path as Helm writes it, value]: each a place that only says where a pod may run. */
const SCHEDULING: [string, string][] = [
  ['tolerations[0].key', 'nvidia.com/gpu'],
  ['tolerations[1].key', 'nvidia.com/gpu'],
  ['controller.tolerations[0].key', 'nvidia.com/gpu'],
  ['nodeSelector.nvidia\\.com/gpu\\.present', 'true'],
  ['worker.nodeSelector.nvidia\\.com/gpu\\.product', 'NVIDIA-A100-SXM4-80GB'],
  ['nodeSelector.node\\.kubernetes\\.io/instance-type', 'g5.xlarge'],
  [
    'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key',
    'nvidia.com/gpu.present',
  ],
  [
    'server.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]',
    'p4d.24xlarge',
  ],
];
/** Places a chart may size GPUs by: not known to be no capacity from the path alone. */
const CAPACITY: [string, string][] = [
  ['resources.limits.nvidia\\.com/gpu', '1'],
  ['nodePool.limits.nvidia\\.com/gpu', '64'],
  ['gpuNodeGroup.instanceType', 'p4d.24xlarge'],
  ['clusterQueue.resourceGroups[0].coveredResources[0]', 'nvidia.com/gpu'],
];

// The path as written in an HCL string: each backslash doubled.
const hcl = (s: string) => s.replace(/\\/g, '\\\\');
const FORMS: { id: string; write: (name: string, value: string) => string }[] = [
  { id: 'set block', write: (n, v) => `  set {\n    name  = "${hcl(n)}"\n    value = "${v}"\n  }\n` },
  { id: 'set_sensitive block', write: (n, v) => `  set_sensitive {\n    name  = "${hcl(n)}"\n    value = "${v}"\n  }\n` },
  { id: 'set_list block', write: (n, v) => `  set_list {\n    name  = "${hcl(n.replace(/\[0\]$/, ''))}"\n    value = ["${v}"]\n  }\n` },
  {
    id: 'set list (helm provider 3)',
    write: (n, v) =>
      `  set = [\n    {\n      name  = "image.tag"\n      value = "1.2"\n    },\n    {\n      name  = "${hcl(n)}"\n      value = "${v}"\n    },\n  ]\n`,
  },
];

const release = (sets: string) =>
  `resource "helm_release" "app" {\n  name       = "app"\n  repository = "https://charts.example.com"\n  chart      = "app"\n${sets}}\n`;

async function review(sets: string) {
  const r = await detectPr({ 'h/main.tf': release('') }, { 'h/main.tf': release(sets) });
  return { changes: r.changes, state: r.coverage.find((c) => c.file === 'h/main.tf')?.state ?? 'not-capacity' };
}

describe('helm_release set paths', () => {
  it.each(
    FORMS.flatMap((f) =>
      SCHEDULING.filter(([n]) => f.id !== 'set_list block' || n.endsWith('[0]')).map(([n, v]) => ({ f: f.id, n, v, write: f.write })),
    ),
  )('a GPU name set where a pod may run is no capacity: $f $n', async ({ n, v, write }) => {
    const r = await review(write(n, v));
    expect(r.changes).toEqual([]);
    expect(r.state).not.toBe('not-followed');
  });

  it.each(
    FORMS.flatMap((f) =>
      CAPACITY.filter(([n]) => f.id !== 'set_list block' || n.endsWith('[0]')).map(([n, v]) => ({ f: f.id, n, v, write: f.write })),
    ),
  )('a GPU name set elsewhere is not followed: $f $n', async ({ n, v, write }) => {
    expect((await review(write(n, v))).state).toBe('not-followed');
  });

  it('two values on one line are not told apart: a toleration beside a limit is not followed', async () => {
    const sets = `  set = [{ name = "tolerations[0].key", value = "nvidia.com/gpu" }, { name = "resources.limits.nvidia\\\\.com/gpu", value = "8" }]\n`;
    expect((await review(sets)).state).toBe('not-followed');
  });
});
