import { readCount, readString } from './counts.js';
import { PRIMARY_GPU_RESOURCE } from './gpu-resources.js';
import { lookupInstanceType } from './gpu-types/index.js';
import { readManifests } from './manifests.js';
import { Findings, yamlParser } from './parser-kit.js';
import { mapGet } from './yaml-nodes.js';

// KAITO's gpu-provisioner creates AKS node pools for a Workspace, so it is an AKS pool here.
const KIND = 'aks-node-pool' as const;
const MARKERS = /kaito\.sh\//;

/** KAITO Workspace: top-level `resource.count` × GPUs of `resource.instanceType`. */
export const kaitoParser = yamlParser('kaito', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind !== 'Workspace' || !(m.apiVersion ?? '').startsWith('kaito.sh/')) continue;
    const resource = mapGet(m.root, 'resource');
    const name = m.name ?? '(unnamed)';
    const type = readString(mapGet(resource, 'instanceType'), m.ctx);
    const count = readCount(mapGet(resource, 'count'), m.ctx, m.line) ?? { ok: true as const, value: 1, line: m.line };
    if (!type) continue;
    const where = `Workspace ${name}`;
    if ('template' in type) {
      found.note(count.line, 'warning', `${where}: instanceType is the template expression ${type.template}; its GPUs are not counted`);
      found.unknown(KIND, name, count.line);
      continue;
    }
    const row = lookupInstanceType(type.value);
    if (!row) {
      found.note(count.line, 'warning', `${where}: instance type ${type.value} is not in the catalog; its GPUs are not counted`);
      found.unknown(KIND, name, count.line);
      continue;
    }
    if (!count.ok) {
      found.note(count.line, 'warning', `${where}: resource.count ${count.why}; its GPUs are not counted`);
      found.unknown(KIND, name, count.line);
      continue;
    }
    const gpus = count.value * row.gpus;
    found.decls.push({
      file: m.ctx.file, line: count.line, kind: KIND, name, gpuModel: row.gpuModel, gpus,
      parts: [{ label: `${count.value} × ${row.type}`, resource: PRIMARY_GPU_RESOURCE, gpus, line: count.line }],
    });
  }
  return found.result(text);
});
