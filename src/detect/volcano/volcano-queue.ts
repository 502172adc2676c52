import { isMap } from 'yaml';
import type { CapacityPart } from '../../domain/index.js';
import { readCount } from '../kit/counts.js';
import { isGpuResource } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, scalarString } from '../kit/yaml-nodes.js';

const KIND = 'volcano-queue' as const;
const MARKERS = /scheduling\.volcano\.sh\//;

/** The three resource lists of a Volcano Queue, in the order that decides what it counts. */
const LEVELS = [
  { field: 'deserved', at: ['deserved'] },
  { field: 'guarantee', at: ['guarantee', 'resource'] },
  { field: 'capability', at: ['capability'] },
] as const;

/**
 * Volcano Queues (`scheduling.volcano.sh` Queue). Each GPU resource is read from three lists
 * (Volcano docs, "Queue Resource Management"): `guarantee.resource` is reserved for the queue,
 * `deserved` is its share (guarantee ≤ deserved ≤ capability), `capability` the most it may use.
 * A resource counts its `deserved` amount, as a Kueue ClusterQueue counts its nominal quota; without
 * one, its `guarantee`; without either, its `capability`, the most the queue can hold. What
 * `capability` allows above that is what the queue may borrow. A queue whose lists name no GPU
 * resource is not a GPU queue.
 */
export const volcanoQueueParser = yamlParser('volcano-queue', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if ((m.apiVersion ?? '').startsWith('scheduling.volcano.sh/') && m.kind === 'Queue') readQueue(m, found);
  }
  return found.result(text);
});

function list(m: Manifest, at: readonly string[]): Map<string, unknown> {
  let node: unknown = mapGet(m.root, 'spec');
  for (const key of at) node = mapGet(node, key);
  const out = new Map<string, unknown>();
  if (!isMap(node)) return out;
  for (const pair of node.items) {
    const key = scalarString(pair.key);
    if (key !== null && isGpuResource(key)) out.set(key, pair.value);
  }
  return out;
}

function readQueue(m: Manifest, found: Findings): void {
  const lists = LEVELS.map((l) => ({ ...l, values: list(m, l.at) }));
  const resources = [...new Set(lists.flatMap((l) => [...l.values.keys()]))];
  if (resources.length === 0) return;
  const name = m.name ?? '(unnamed)';
  const parts: CapacityPart[] = [];
  let unknown = false;
  for (const resource of resources) {
    const level = lists.find((l) => l.values.has(resource));
    if (level === undefined) continue;
    const node = level.values.get(resource);
    const count = readCount(node, m.ctx, nodeLine(node, m.ctx.lc) ?? m.line);
    if (count === null || !count.ok) {
      const at = count?.line ?? m.line;
      found.note(
        at,
        'warning',
        `Volcano Queue ${name}: ${level.field}.${resource} ${count === null ? 'is empty' : count.error}; its GPUs are not counted`,
      );
      unknown = true;
      continue;
    }
    const cap = level.field === 'capability' ? null : capability(lists[2]?.values.get(resource), m);
    parts.push({
      label: `Queue ${name}: ${level.field} ${resource}`,
      resource,
      gpus: count.value,
      line: count.line,
      ...(cap === null ? {} : { borrowingLimit: Math.max(0, cap - count.value) }),
    });
  }
  if (unknown || parts.length === 0) {
    found.unknown(KIND, name, parts[0]?.line ?? m.line);
    return;
  }
  const borrowing = parts.every((p) => p.borrowingLimit !== undefined) ? parts.reduce((s, p) => s + (p.borrowingLimit ?? 0), 0) : undefined;
  found.decls.push({
    file: m.ctx.file,
    line: parts[0]?.line ?? m.line,
    kind: KIND,
    name,
    gpuModel: null,
    gpus: parts.reduce((s, p) => s + p.gpus, 0),
    parts,
    ...(borrowing === undefined ? {} : { borrowingLimit: borrowing }),
  });
}

/** The capability of a resource, when it is a readable count. */
function capability(node: unknown, m: Manifest): number | null {
  const count = readCount(node, m.ctx, m.line);
  return count?.ok === true ? count.value : null;
}
