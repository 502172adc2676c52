import type { YamlDoc } from '../kit/kube-yaml.js';
import { GPU_MODEL_LABELS, normaliseGpuModel } from '../kit/gpu-resources.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, scalarString } from '../kit/yaml-nodes.js';

/** GPU model per ResourceFlavor name, from node labels that name the model outright. */
export function flavorModels(docs: readonly YamlDoc[]): Map<string, string> {
  const models = new Map<string, string>();
  for (const doc of docs) {
    const root = doc.contents;
    if (scalarString(mapGet(root, 'kind')) !== 'ResourceFlavor') continue;
    if (!(scalarString(mapGet(root, 'apiVersion')) ?? '').startsWith('kueue.x-k8s.io/')) continue;
    const name = scalarString(mapGet(mapGet(root, 'metadata'), 'name'));
    if (name === null) continue;
    const labels = mapGet(mapGet(root, 'spec'), 'nodeLabels');
    for (const key of GPU_MODEL_LABELS) {
      const value = scalarString(mapGet(labels, key));
      if (value !== null && value.trim() !== '' && findTemplateExpression(value) === null) {
        models.set(name, normaliseGpuModel(value.trim()));
        break;
      }
    }
  }
  return models;
}

/** Names of the AdmissionChecks that dispatch to worker clusters (MultiKueue's controller). */
export function multiKueueChecks(docs: readonly YamlDoc[]): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    const root = doc.contents;
    if (scalarString(mapGet(root, 'kind')) !== 'AdmissionCheck') continue;
    if (scalarString(mapGet(mapGet(root, 'spec'), 'controllerName')) !== 'kueue.x-k8s.io/multikueue') continue;
    const name = scalarString(mapGet(mapGet(root, 'metadata'), 'name'));
    if (name !== null) out.add(name);
  }
  return out;
}
