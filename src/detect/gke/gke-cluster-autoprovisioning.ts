import { isMap } from 'yaml';
import { readCount, readString } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, scalarValue, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'gke-autoprovisioning' as const;
const MARKERS = /ContainerCluster/;

/**
 * Config Connector ContainerCluster's node auto-provisioning GPU limits
 * (`spec.clusterAutoscaling.resourceLimits[]`, read when `enabled`), as the Terraform reader
 * reads google_container_cluster's (terraform/gke-autoprovisioning.ts): one declaration per
 * accelerator type, named by the type, at its `maximum`.
 */
export const gkeClusterAutoprovisioningParser = yamlParser('gke-cluster-autoprovisioning', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind === 'ContainerCluster' && (m.apiVersion ?? '').startsWith('container.cnrm.cloud.google.com/')) readLimits(m, found);
  }
  return found.result(text);
});

function readLimits(m: Manifest, found: Findings): void {
  const settings = mapGet(mapGet(m.root, 'spec'), 'clusterAutoscaling');
  if (scalarValue(mapGet(settings, 'enabled')) !== true) return;
  const cluster = m.name ?? '(unnamed)';
  for (const limit of seqItems(mapGet(settings, 'resourceLimits'))) {
    if (!isMap(limit)) continue;
    const type = readString(mapGet(limit, 'resourceType'), m.ctx);
    if (type === null || 'template' in type || !/^nvidia-/.test(type.value)) continue;
    const line = nodeLine(limit, m.ctx.lc) ?? m.line;
    const max = readCount(mapGet(limit, 'maximum'), m.ctx, line);
    if (max === null || !max.ok) {
      found.note(
        max?.line ?? line,
        'warning',
        `ContainerCluster ${cluster}: node auto-provisioning ${type.value} maximum ${max === null ? 'is not set' : max.error}; its GPUs are not counted`,
      );
      found.unknown(KIND, type.value, max?.line ?? line);
      continue;
    }
    found.decls.push({
      file: m.ctx.file,
      line: max.line,
      kind: KIND,
      name: type.value,
      gpuModel: acceleratorModel(type.value),
      gpus: max.value,
      parts: [
        {
          label: `ContainerCluster ${cluster}: node auto-provisioning ${type.value} maximum`,
          resource: PRIMARY_GPU_RESOURCE,
          gpus: max.value,
          line: max.line,
        },
      ],
    });
  }
}
