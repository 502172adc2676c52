import { isMap, isScalar } from 'yaml';
import { readCount, readString } from '../kit/counts.js';
import type { CountRead } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';

// Kubermatic's machine-controller serves the first Cluster API (cluster.k8s.io/v1alpha1): its
// MachineDeployments are Cluster API's, so they are counted under that kind.
const KIND = 'capi-machinedeployment' as const;
const API = 'cluster.k8s.io/';
const MARKERS = /cluster\.k8s\.io\//;
const GROUPS = new Set(['MachineDeployment', 'MachineSet']);
// The cluster-autoscaler bounds a group it scales by these annotations (its clusterapi provider).
const MAX_SIZE = /^cluster\.(?:x-)?k8s\.io\/cluster-api-autoscaler-node-group-max-size$/;
/** Where each cloud's provider spec names the machine type (`cloudProvider` picks the cloud). */
const TYPE_FIELDS = ['instanceType', 'vmSize', 'machineType', 'serverType', 'flavor', 'instanceFlavor', 'plan', 'size', 'type'];

/**
 * Kubermatic machine-controller (Kubermatic, KubeOne): a `cluster.k8s.io/v1alpha1`
 * MachineDeployment or MachineSet runs `replicas` machines (1 when unset), or as many as the
 * cluster-autoscaler's max-size annotation allows, each of the type its provider spec names
 * (`providerSpec.value.cloudProviderSpec`, `providerConfig` in older files: AWS `instanceType`,
 * Azure `vmSize`, GCE `machineType`, others by their own field) × the GPUs of that type.
 */
export const machineControllerParser = yamlParser('machine-controller', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (GROUPS.has(m.kind ?? '') && (m.apiVersion ?? '').startsWith(API)) readGroup(m, found);
  }
  return found.result(text);
});

function readGroup(m: Manifest, found: Findings): void {
  const name = m.name ?? '(unnamed)';
  const template = mapGet(mapGet(m.root, 'spec'), 'template');
  const provider = mapGet(mapGet(template, 'spec'), 'providerSpec') ?? mapGet(mapGet(template, 'spec'), 'providerConfig');
  const cloud = mapGet(mapGet(provider, 'value'), 'cloudProviderSpec');
  const where = `${m.kind ?? 'MachineDeployment'} ${name}`;
  let perMachine: { gpus: number; model: string | null; type: string } | null = null;
  for (const field of TYPE_FIELDS) {
    const node = mapGet(cloud, field);
    const type = readString(node, m.ctx);
    if (type === null) continue;
    const line = nodeLine(node, m.ctx.lc) ?? m.line;
    if ('template' in type) {
      if (/gpu|nvidia/i.test(m.ctx.text)) {
        found.note(line, 'warning', `${where}: ${field} is the template expression ${type.template}; its GPUs are not counted`);
        found.unknown(KIND, name, line);
      }
      return;
    }
    const info = classifyTypes([type.value]);
    if (info.kind === 'cpu') continue;
    if (info.kind === 'unknown-gpu') {
      found.note(line, 'warning', `${where}: ${field} ${type.value} is not in the GPU catalog; its GPUs are not counted`);
      found.unknown(KIND, name, line);
      return;
    }
    perMachine = { gpus: info.gpusPerNode, model: info.gpuModel, type: type.value };
    break;
  }
  if (perMachine === null) return;
  const count = machines(m);
  if (!count.ok) {
    found.note(count.line, 'warning', `${where}: ${count.error}; with ${perMachine.gpus} GPUs per machine its GPUs are not counted`);
    found.unknown(KIND, name, count.line);
    return;
  }
  const gpus = count.value * perMachine.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: count.line,
    kind: KIND,
    name,
    gpuModel: perMachine.model,
    gpus,
    gpuStep: perMachine.gpus,
    parts: [{ label: `${count.value} × ${perMachine.type}`, resource: PRIMARY_GPU_RESOURCE, gpus, line: count.line }],
  });
}

/** The most machines of the group: the autoscaler's max-size annotation, else `replicas`, else 1. */
function machines(m: Manifest): CountRead {
  const annotations = mapGet(mapGet(m.root, 'metadata'), 'annotations');
  for (const key of annotationKeys(annotations)) {
    if (!MAX_SIZE.test(key)) continue;
    const max = readCount(mapGet(annotations, key), m.ctx, m.line);
    if (max) return max.ok ? max : { ...max, error: `the ${key} annotation ${max.error}` };
  }
  const replicas = readCount(mapGet(mapGet(m.root, 'spec'), 'replicas'), m.ctx, m.line);
  if (replicas === null) return { ok: true, value: 1, line: m.line };
  return replicas.ok ? replicas : { ...replicas, error: `replicas ${replicas.error}` };
}

function annotationKeys(node: unknown): string[] {
  if (!isMap(node)) return [];
  return node.items.flatMap((p) => (isScalar(p.key) && typeof p.key.value === 'string' ? [p.key.value] : []));
}
