import { isMap } from 'yaml';
import { readString } from '../kit/counts.js';
import { GCP_GPU_FAMILIES } from '../kit/gpu-types/families.js';
import { looksLikeGpuType } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { toJson } from '../kit/kube-yaml-normalize.js';
import { mapGet, nodeLine, scalarValue, seqItems } from '../kit/yaml-nodes.js';
import type { AccountedLines } from '../parser.js';

// The key may be quoted (`"kind": "ComputeClass"` in JSON or YAML), the value tagged (`!!str ComputeClass`).
const MARKERS = /kind["']?\s*:\s*(?:[!&]\S*\s+)*["']?ComputeClass\b/;

/**
 * GKE custom ComputeClasses (`cloud.google.com/v1` ComputeClass). A class ranks the machine shapes
 * GKE scales up with (`spec.priorities`: a `gpu` type and count per node, a GPU machine type or
 * family, or `nodepools` to pick); it sets no node count. So it declares no GPU count of its own:
 * - priorities that only pick node pools, or GPU shapes GKE may only find in existing pools or
 *   create under the cluster's auto-provisioning limits, add nothing beyond those pools and limits,
 *   which are read where they are declared; the class is read, with no capacity.
 * - a class that creates node pools itself (`nodePoolAutoCreation.enabled`, or `autopilot.enabled`)
 *   for GPU priorities brings up GPU nodes bounded by nothing the class says: that is not followed,
 *   fingerprinted by those priorities and switches, so an edit elsewhere in it passes.
 */
export const gkeComputeClassParser = yamlParser('gke-compute-class', MARKERS, (path, text) => {
  const found = new Findings(path);
  const accounted: AccountedLines[] = [];
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind !== 'ComputeClass' || !/^cloud\.google\.com\//.test(m.apiVersion ?? '')) continue;
    accounted.push({ file: m.ctx.file, from: m.line, to: m.line, object: true });
    readClass(m, found);
  }
  const result = found.result(text);
  for (const d of result.diagnostics) if (d.line !== null) accounted.push({ file: path, from: d.line, to: d.line, object: true });
  return { ...result, accounted };
});

const enabled = (node: unknown): boolean => {
  const v = scalarValue(mapGet(node, 'enabled'));
  return v === true || v === 'true';
};

/** A priority that brings GPUs: a `gpu` block, a GPU machine type, or a GPU machine family. */
function gpuPriority(rule: unknown, m: Manifest): boolean {
  if (!isMap(rule)) return false;
  if (mapGet(rule, 'gpu') !== undefined) return true;
  const type = readString(mapGet(rule, 'machineType'), m.ctx);
  if (type !== null && 'value' in type && looksLikeGpuType(type.value)) return true;
  const family = readString(mapGet(rule, 'machineFamily'), m.ctx);
  return family !== null && 'value' in family && GCP_GPU_FAMILIES.includes(family.value.toLowerCase());
}

function readClass(m: Manifest, found: Findings): void {
  const spec = mapGet(m.root, 'spec');
  const rules = seqItems(mapGet(spec, 'priorities')).filter((r) => gpuPriority(r, m));
  if (rules.length === 0) return;
  const creation = mapGet(spec, 'nodePoolAutoCreation');
  const autopilot = mapGet(spec, 'autopilot');
  if (!enabled(creation) && !enabled(autopilot)) return;
  const name = m.name ?? '(unnamed)';
  const line = nodeLine(rules[0], m.ctx.lc) ?? m.line;
  // By value as the applier reads it: a priority respelt (`2` as `0o2`, a comment added) is the same priority.
  const shapes = rules.map((r) => JSON.stringify(toJson(r)));
  found.notFollowed.push({
    file: m.ctx.file,
    line,
    reason: 'count-unknown',
    subject: `ComputeClass ${name}`,
    needs:
      'a ComputeClass that creates node pools sets no node count, so the GPU nodes of its GPU priorities are bounded by nothing it declares: ' +
      'bound them with node pools or node auto-provisioning limits the review reads (docs/change-kinds.md), or check them by hand',
    inputs: ['priorities', enabled(creation) ? 'nodePoolAutoCreation' : 'autopilot'],
    fingerprint: JSON.stringify([name, shapes, enabled(creation), enabled(autopilot)]),
  });
}
