import { z } from 'zod';
import type { CapacityPart } from '../../domain/index.js';
import { readCount } from '../kit/counts.js';
import { GPU_MODEL_LABELS, isGpuResource, isWholeGpuResource, normaliseGpuModel } from '../kit/gpu-resources.js';
import { KUEUE_KIND } from './kueue-queue.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, nodeLine, scalarString, seqItems } from '../kit/yaml-nodes.js';

// The chart's own values key; its templates name it only as `.Values.kueuePopulator`.
const MARKERS = /^[ \t]*kueuePopulator[ \t]*:/m;
/** The ResourceFlavor the chart's setup hook creates and the queue's only flavor. */
const POPULATOR_FLAVOR = 'tas-gpu-default';

// The chart renders the queue only when these are set; anything else is not its values.
const QueueValues = z.object({
  name: z.string().min(1),
  resources: z.array(z.object({ name: z.string(), nominalQuota: z.unknown() })),
});

/**
 * Values of Kueue's populator chart (kubernetes-sigs/kueue, cmd/experimental/kueue-populator):
 * `kueuePopulator.config.clusterQueue` becomes one ClusterQueue with one flavor,
 * `tas-gpu-default`, whose nodes `resourceFlavor.nodeLabels` select. Raising its GPU
 * `nominalQuota` in the values is a capacity change as real as editing the queue.
 */
export const kueuePopulatorParser = yamlParser('kueue-populator', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics.filter((d) => d.severity !== 'info'));
  for (const m of scan.manifests) if (m.kind === null) readValues(m, found);
  return found.result(text);
});

function readValues(m: Manifest, found: Findings): void {
  const config = mapGet(mapGet(m.root, 'kueuePopulator'), 'config');
  const queue = mapGet(config, 'clusterQueue');
  if (queue === undefined || queue === null) return;
  const shape = QueueValues.safeParse(toPlain(queue));
  const line = nodeLine(queue, m.ctx.lc) ?? m.line;
  if (!shape.success) {
    const names = seqItems(mapGet(queue, 'resources')).map((r) => scalarString(mapGet(r, 'name')) ?? '');
    if (names.some(isGpuResource)) {
      found.note(
        line,
        'warning',
        `kueuePopulator.config.clusterQueue is not a name and a list of resources (${shape.error.issues[0]?.message ?? 'unexpected shape'}); its GPU quota is not read`,
      );
    }
    return;
  }
  const name = shape.data.name;
  const parts: CapacityPart[] = [];
  let unreadable = false;
  for (const res of seqItems(mapGet(queue, 'resources'))) {
    const resource = scalarString(mapGet(res, 'name')) ?? '';
    if (!isGpuResource(resource)) continue;
    const quota = readCount(mapGet(res, 'nominalQuota'), m.ctx, nodeLine(res, m.ctx.lc) ?? line);
    if (quota === null || !quota.ok) {
      found.note(
        quota?.line ?? line,
        'warning',
        `kueue-populator ClusterQueue ${name}, ${resource}: nominalQuota ${quota ? quota.error : 'is missing'}; the GPU quota is unknown`,
      );
      unreadable = true;
      continue;
    }
    parts.push({ label: POPULATOR_FLAVOR, resource, gpus: quota.value, line: quota.line });
  }
  if (unreadable) {
    found.unknown(KUEUE_KIND, name, line);
    return;
  }
  const whole = parts.filter((p) => isWholeGpuResource(p.resource));
  const counted = whole.length > 0 ? whole : parts;
  const [first] = counted;
  if (!first) return;
  found.decls.push({
    file: m.ctx.file,
    line: first.line,
    kind: KUEUE_KIND,
    name,
    gpuModel: flavorModel(mapGet(mapGet(config, 'resourceFlavor'), 'nodeLabels')),
    gpus: counted.reduce((n, p) => n + p.gpus, 0),
    parts,
  });
}

function flavorModel(labels: unknown): string | null {
  for (const key of GPU_MODEL_LABELS) {
    const value = scalarString(mapGet(labels, key));
    if (value !== null && value.trim() !== '' && findTemplateExpression(value) === null) return normaliseGpuModel(value.trim());
  }
  return null;
}

function toPlain(node: unknown): unknown {
  return node !== null && typeof node === 'object' && 'toJSON' in node && typeof node.toJSON === 'function'
    ? (node.toJSON as () => unknown)()
    : node;
}
