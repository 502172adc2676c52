import type { CountRead } from '../kit/counts.js';
import { readCount, readString } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';

// KAITO's gpu-provisioner creates AKS node pools for a Workspace, so it is an AKS pool here.
const KIND = 'aks-node-pool' as const;
const MARKERS = /kaito\.sh\//;

/**
 * KAITO Workspace: top-level `resource.count` (default 1) × GPUs of `resource.instanceType`.
 * MultiRoleInference: each role's `replicas` nodes of its `instanceType` (see readMultiRole).
 * InferenceSet: `spec.replicas` Workspaces, each `template.resource.count` nodes, capped by
 * `spec.nodeCountLimit` when that is lower. A Workspace that names no instance type runs on
 * nodes that already exist (labelSelector only) and provisions nothing.
 */
export const kaitoParser = yamlParser('kaito', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (!(m.apiVersion ?? '').startsWith('kaito.sh/')) continue;
    if (m.kind === 'Workspace') readWorkspace(m, found);
    else if (m.kind === 'InferenceSet') readInferenceSet(m, found);
    else if (m.kind === 'MultiRoleInference') readMultiRole(m, found);
  }
  return found.result(text);
});

function readWorkspace(m: Manifest, found: Findings): void {
  const resource = mapGet(m.root, 'resource');
  const name = m.name ?? '(unnamed)';
  const typeNode = mapGet(resource, 'instanceType');
  const typeLine = nodeLine(typeNode, m.ctx.lc) ?? m.line;
  const count = readCount(mapGet(resource, 'count'), m.ctx, m.line) ?? { ok: true as const, value: 1, line: typeLine };
  const perNode = gpusPerNode(m, typeNode, `Workspace ${name}`, count.line, found);
  if (!perNode) return;
  if (!count.ok) {
    fail(found, count.line, `Workspace ${name}: resource.count ${count.error}`, name);
    return;
  }
  push(found, m, name, count.value, perNode, count.line);
}

function readInferenceSet(m: Manifest, found: Findings): void {
  const spec = mapGet(m.root, 'spec');
  const name = m.name ?? '(unnamed)';
  const where = `InferenceSet ${name}`;
  const resource = mapGet(mapGet(spec, 'template'), 'resource');
  const typeNode = mapGet(resource, 'instanceType');
  const replicas: CountRead = readCount(mapGet(spec, 'replicas'), m.ctx, m.line) ?? {
    ok: true,
    value: 1,
    line: nodeLine(typeNode, m.ctx.lc) ?? m.line,
  };
  const perNode = gpusPerNode(m, typeNode, where, replicas.line, found);
  if (!perNode) return;
  const count = readCount(mapGet(resource, 'count'), m.ctx, m.line) ?? { ok: true as const, value: 1, line: replicas.line };
  const limit = readCount(mapGet(spec, 'nodeCountLimit'), m.ctx, m.line);
  for (const [read, field] of [
    [replicas, 'spec.replicas'],
    [count, 'template.resource.count'],
    [limit, 'spec.nodeCountLimit'],
  ] as const) {
    if (read && !read.ok) {
      fail(found, read.line, `${where}: ${field} ${read.error}`, name);
      return;
    }
  }
  if (!replicas.ok || !count.ok || (limit && !limit.ok)) return;
  const nodes = replicas.value * count.value;
  if (limit?.ok && limit.value < nodes) {
    found.note(limit.line, 'info', `${where}: ${replicas.value} replicas × ${count.value} nodes, capped at nodeCountLimit ${limit.value}`);
    push(found, m, name, limit.value, perNode, limit.line);
    return;
  }
  push(found, m, name, nodes, perNode, replicas.line, count.value);
}

/**
 * MultiRoleInference (disaggregated serving): each of `spec.roles` (prefill, decode) runs
 * `replicas` nodes of its `instanceType`. One pool of all its roles, a part per role.
 */
function readMultiRole(m: Manifest, found: Findings): void {
  const name = m.name ?? '(unnamed)';
  const parts: { label: string; gpus: number; line: number; perNode: PerNode }[] = [];
  for (const role of seqItems(mapGet(mapGet(m.root, 'spec'), 'roles'))) {
    const type = readString(mapGet(role, 'type'), m.ctx);
    const where = `MultiRoleInference ${name}, role ${type !== null && 'value' in type ? type.value : '(unnamed)'}`;
    const typeNode = mapGet(role, 'instanceType');
    const replicas: CountRead = readCount(mapGet(role, 'replicas'), m.ctx, m.line) ?? {
      ok: true,
      value: 1,
      line: nodeLine(typeNode, m.ctx.lc) ?? m.line,
    };
    const perNode = gpusPerNode(m, typeNode, where, replicas.line, found);
    if (!perNode) {
      // A role that names no instance type runs on existing nodes; one that cannot be read was reported.
      if (typeNode === undefined || typeNode === null) continue;
      return;
    }
    if (!replicas.ok) {
      fail(found, replicas.line, `${where}: replicas ${replicas.error}`, name);
      return;
    }
    parts.push({
      label: `${where.slice(where.indexOf('role '))}: ${replicas.value} × ${perNode.type}`,
      gpus: replicas.value * perNode.gpus,
      line: replicas.line,
      perNode,
    });
  }
  const first = parts[0];
  if (first === undefined) return;
  const models = new Set(parts.map((p) => p.perNode.model));
  const steps = new Set(parts.map((p) => p.perNode.gpus));
  found.decls.push({
    file: m.ctx.file,
    line: first.line,
    kind: KIND,
    name,
    gpuModel: models.size === 1 ? first.perNode.model : null,
    gpus: parts.reduce((sum, p) => sum + p.gpus, 0),
    // Roles on different instance types leave the step of one more node unknown.
    ...(steps.size === 1 ? { gpuStep: first.perNode.gpus } : {}),
    parts: parts.map((p) => ({ label: p.label, resource: PRIMARY_GPU_RESOURCE, gpus: p.gpus, line: p.line })),
  });
}

interface PerNode {
  type: string;
  gpus: number;
  model: string;
}

function gpusPerNode(m: Manifest, typeNode: unknown, where: string, line: number, found: Findings): PerNode | null {
  const type = readString(typeNode, m.ctx);
  if (!type) return null;
  const name = m.name ?? '(unnamed)';
  if ('template' in type) {
    fail(found, line, `${where}: instanceType is the template expression ${type.template}`, name);
    return null;
  }
  const row = lookupInstanceType(type.value);
  if (!row) {
    fail(found, line, `${where}: instance type ${type.value} is not in the catalog`, name);
    return null;
  }
  return { type: row.type, gpus: row.gpus, model: row.gpuModel };
}

function fail(found: Findings, line: number, why: string, name: string): void {
  found.note(line, 'warning', `${why}; its GPUs are not counted`);
  found.unknown(KIND, name, line);
}

/** `nodesPerStep`: nodes one more in the counted field adds (an InferenceSet replica is a whole Workspace). */
function push(found: Findings, m: Manifest, name: string, nodes: number, perNode: PerNode, line: number, nodesPerStep = 1): void {
  const gpus = nodes * perNode.gpus;
  found.decls.push({
    file: m.ctx.file,
    line,
    kind: KIND,
    name,
    gpuModel: perNode.model,
    gpus,
    gpuStep: nodesPerStep * perNode.gpus,
    parts: [{ label: `${nodes} × ${perNode.type}`, resource: PRIMARY_GPU_RESOURCE, gpus, line }],
  });
}
