import { isMap, isSeq } from 'yaml';
import { readCount, readString } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';

const KIND = 'openshift-cluster-autoscaler' as const;
const MARKERS = /autoscaling\.openshift\.io\//;

/**
 * OpenShift's ClusterAutoscaler: `spec.resourceLimits.gpus[]` caps the GPUs of each type in the
 * whole cluster (`type` is the `cluster-api/accelerator` label of the machine sets' nodes; `max`
 * the most GPUs of that type the autoscaler scales to). One declaration per GPU type, named by
 * that type, so a workload's `pool:` can name it. Machine sets without a limit here scale as far
 * as their MachineAutoscalers let them, which this reader does not follow.
 */
export const openshiftAutoscalerParser = yamlParser('openshift-autoscaler', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if ((m.apiVersion ?? '').startsWith('autoscaling.openshift.io/') && m.kind === 'ClusterAutoscaler') readLimits(m, found);
  }
  return found.result(text);
});

function readLimits(m: Manifest, found: Findings): void {
  const gpus = mapGet(mapGet(mapGet(m.root, 'spec'), 'resourceLimits'), 'gpus');
  if (!isSeq(gpus)) return;
  const autoscaler = m.name ?? 'default';
  for (const item of gpus.items) {
    if (!isMap(item)) continue;
    const line = nodeLine(item, m.ctx.lc) ?? m.line;
    const type = readString(mapGet(item, 'type'), m.ctx);
    if (type === null || 'template' in type) {
      found.note(
        line,
        'warning',
        `ClusterAutoscaler ${autoscaler}: a GPU limit whose type ${type === null ? 'is not set' : `is the template expression ${type.template}`}; its GPUs are not counted`,
      );
      continue;
    }
    const max = readCount(mapGet(item, 'max'), m.ctx, line);
    if (max === null || !max.ok) {
      found.note(
        max?.line ?? line,
        'warning',
        `ClusterAutoscaler ${autoscaler}: gpus[${type.value}].max ${max === null ? 'is not set' : max.error}; its GPUs are not counted`,
      );
      found.unknown(KIND, type.value, max?.line ?? line);
      continue;
    }
    // A type that names a resource (amd.com/gpu) counts that; a label value counts NVIDIA GPUs.
    const resource = type.value.includes('/') ? type.value : PRIMARY_GPU_RESOURCE;
    found.decls.push({
      file: m.ctx.file,
      line: max.line,
      kind: KIND,
      name: type.value,
      gpuModel: acceleratorModel(type.value),
      gpus: max.value,
      parts: [{ label: `ClusterAutoscaler ${autoscaler}: gpus ${type.value} max`, resource, gpus: max.value, line: max.line }],
    });
  }
}
