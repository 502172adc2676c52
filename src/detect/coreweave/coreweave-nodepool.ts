import { readCount, readString } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, scalarValue } from '../kit/yaml-nodes.js';
import { coreWeaveShape } from './coreweave-instance.js';

const KIND = 'coreweave-nodepool' as const;
const MARKERS = /compute\.coreweave\.com\//;

/**
 * CoreWeave Kubernetes Service Node Pools (`compute.coreweave.com` NodePool): `instanceType` fixes
 * the GPUs of each node; `targetNodes` is how many nodes CKS keeps, and with `autoscaling: true`
 * the autoscaler moves it between `minNodes` and `maxNodes`, so the pool's GPUs are those of
 * `maxNodes` nodes (CoreWeave docs, "Node Pool reference" and "Autoscale Node Pools").
 */
export const coreWeaveNodePoolParser = yamlParser('coreweave-nodepool', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if ((m.apiVersion ?? '').startsWith('compute.coreweave.com/') && m.kind === 'NodePool') readPool(m, found);
  }
  return found.result(text);
});

function readPool(m: Manifest, found: Findings): void {
  const spec = mapGet(m.root, 'spec');
  const name = m.name ?? '(unnamed)';
  const type = readString(mapGet(spec, 'instanceType'), m.ctx);
  if (type === null || 'template' in type) {
    const why = type === null ? 'has no instanceType' : `has the instance type ${type.template}, unknown until rendered`;
    found.note(m.line, 'warning', `CoreWeave NodePool ${name} ${why}; its GPUs are not counted`);
    found.unknown(KIND, name, m.line);
    return;
  }
  const shape = coreWeaveShape(type.value);
  if (shape === 'cpu') return;
  if (shape === null) {
    found.note(
      m.line,
      'warning',
      `CoreWeave NodePool ${name}: the instance type ${type.value} is not one whose GPUs are known; its GPUs are not counted`,
    );
    found.unknown(KIND, name, m.line);
    return;
  }
  const autoscaling = scalarValue(mapGet(spec, 'autoscaling'));
  const scales = autoscaling === true || autoscaling === 'true';
  const field = scales ? 'maxNodes' : 'targetNodes';
  const nodes = readCount(mapGet(spec, field), m.ctx, m.line);
  if (nodes === null || !nodes.ok) {
    const why = nodes === null ? 'is not set' : nodes.error;
    found.note(nodes?.line ?? m.line, 'warning', `CoreWeave NodePool ${name}: ${field} ${why}; its GPUs are not counted`);
    found.unknown(KIND, name, nodes?.line ?? m.line, scales && nodes === null ? 'maxNodes' : undefined);
    return;
  }
  if (!Number.isInteger(nodes.value)) {
    found.note(
      nodes.line,
      'warning',
      `CoreWeave NodePool ${name}: ${field} ${nodes.value} is not a whole number of nodes; its GPUs are not counted`,
    );
    found.unknown(KIND, name, nodes.line);
    return;
  }
  const gpus = nodes.value * shape.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: nodes.line,
    kind: KIND,
    name,
    gpuModel: shape.model,
    gpus,
    gpuStep: shape.gpus,
    parts: [
      { label: `NodePool ${name}: ${nodes.value} × ${type.value} (${field})`, resource: PRIMARY_GPU_RESOURCE, gpus, line: nodes.line },
    ],
  });
}
