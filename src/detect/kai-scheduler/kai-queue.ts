import { readCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, nodeSource } from '../kit/yaml-nodes.js';

const KIND = 'kai-queue' as const;
const MARKERS = /scheduling\.run\.ai\//;

/**
 * KAI Scheduler (and Run:ai) Queues, `scheduling.run.ai` Queue: `spec.resources.gpu.quota` is the
 * GPUs the queue is guaranteed, `limit` the most it may take, borrowing above its quota; `-1` is
 * "no limit" in both (KAI Scheduler docs, "Scheduling Queues"). The queue counts its quota, as a
 * Kueue ClusterQueue counts its nominal quota, with `limit − quota` as what it may borrow; a quota of
 * -1 has no bound, so its count is unknown. A child queue (`parentQueue`) is counted on its own.
 */
export const kaiQueueParser = yamlParser('kai-queue', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if ((m.apiVersion ?? '').startsWith('scheduling.run.ai/') && m.kind === 'Queue') readQueue(m, found);
  }
  return found.result(text);
});

/** -1, as KAI writes "no limit". */
function unlimited(node: unknown, m: Manifest): boolean {
  return (
    node !== undefined &&
    node !== null &&
    /^-1(?:\.0*)?$/.test(
      nodeSource(node, m.ctx.text)
        .trim()
        .replace(/^["']|["']$/g, ''),
    )
  );
}

function readQueue(m: Manifest, found: Findings): void {
  const gpu = mapGet(mapGet(mapGet(m.root, 'spec'), 'resources'), 'gpu');
  if (gpu === undefined || gpu === null) return;
  const name = m.name ?? '(unnamed)';
  const line = nodeLine(gpu, m.ctx.lc) ?? m.line;
  const quotaNode = mapGet(gpu, 'quota');
  if (unlimited(quotaNode, m)) {
    found.note(nodeLine(quotaNode, m.ctx.lc) ?? line, 'warning', `KAI Queue ${name}: gpu.quota is -1 (no limit); its GPUs are not counted`);
    found.unknown(KIND, name, nodeLine(quotaNode, m.ctx.lc) ?? line, 'gpu.quota -1');
    return;
  }
  const quota = readCount(quotaNode, m.ctx, line);
  if (quota === null || !quota.ok) {
    const why = quota === null ? 'is not set' : quota.error;
    found.note(quota?.line ?? line, 'warning', `KAI Queue ${name}: gpu.quota ${why}; its GPUs are not counted`);
    found.unknown(KIND, name, quota?.line ?? line);
    return;
  }
  const limitNode = mapGet(gpu, 'limit');
  const limit = unlimited(limitNode, m) ? null : readCount(limitNode, m.ctx, line);
  if (limit !== null && !limit.ok)
    found.note(limit.line, 'warning', `KAI Queue ${name}: gpu.limit ${limit.error}; what it may borrow is not known`);
  const borrowing = limit?.ok === true ? Math.max(0, limit.value - quota.value) : undefined;
  found.decls.push({
    file: m.ctx.file,
    line: quota.line,
    kind: KIND,
    name,
    gpuModel: null,
    gpus: quota.value,
    parts: [
      {
        label: `Queue ${name}: gpu quota`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus: quota.value,
        line: quota.line,
        ...(borrowing === undefined ? {} : { borrowingLimit: borrowing }),
      },
    ],
    ...(borrowing === undefined ? {} : { borrowingLimit: borrowing }),
  });
}
