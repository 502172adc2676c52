import { readString, readWholeCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import { workerGpus } from './gardener-worker-gpus.js';

const KIND = 'gardener-worker' as const;
const API = /^core\.gardener\.cloud\//;
const MARKERS = /core\.gardener\.cloud\//;

/**
 * Gardener Shoots (`core.gardener.cloud` Shoot): each entry of `spec.provider.workers` is a worker
 * pool the cluster-autoscaler grows up to `maximum` machines in all, spread over its zones
 * (Gardener, "Shoot API": minimum and maximum are divided among the zones), each machine with the
 * GPUs of its `machine.type` and, on GCP, those its `providerConfig.gpu` attaches. A pool is named
 * `<shoot>/<worker>`: worker names repeat from one Shoot to the next.
 */
export const gardenerShootParser = yamlParser('gardener-shoot', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind === 'Shoot' && API.test(m.apiVersion ?? '')) readShoot(m, found);
  }
  return found.result(text);
});

function readShoot(m: Manifest, found: Findings): void {
  const provider = mapGet(mapGet(m.root, 'spec'), 'provider');
  const type = readString(mapGet(provider, 'type'), m.ctx);
  const cloud = type !== null && 'value' in type ? type.value : null;
  for (const worker of seqItems(mapGet(provider, 'workers'))) readWorker(m, worker, cloud, found);
}

function readWorker(m: Manifest, worker: unknown, cloud: string | null, found: Findings): void {
  const line = nodeLine(worker, m.ctx.lc) ?? m.line;
  const workerName = readString(mapGet(worker, 'name'), m.ctx);
  const name = `${m.name ?? '(unnamed)'}/${workerName !== null && 'value' in workerName ? workerName.value : '(unnamed)'}`;
  const where = `Gardener Shoot worker ${name}`;
  const perMachine = workerGpus(worker, cloud, m.ctx, line);
  if (perMachine.kind === 'cpu') return;
  if (perMachine.kind === 'unknown') {
    found.note(perMachine.line, 'warning', `${where}: ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, perMachine.line);
    return;
  }
  const max = readWholeCount(mapGet(worker, 'maximum'), m.ctx, line);
  const min = readWholeCount(mapGet(worker, 'minimum'), m.ctx, line);
  if (max === null || !max.ok) {
    const why = max === null ? 'has no maximum' : `maximum ${max.why}`;
    found.note(max?.line ?? line, 'warning', `${where} ${why}; with ${perMachine.gpus} GPUs per machine its GPUs are not counted`);
    found.unknown(KIND, name, max?.line ?? line);
    return;
  }
  // Gardener refuses minimum > maximum; should one get through, the pool still holds minimum machines.
  const machines = min?.ok === true && min.value > max.value ? min : max;
  const gpus = machines.value * perMachine.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: machines.line,
    kind: KIND,
    name,
    gpuModel: perMachine.model,
    gpus,
    gpuStep: perMachine.gpus,
    parts: [
      {
        label: `worker ${name}: ${machines.value} × ${perMachine.label} (maximum)`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: machines.line,
      },
    ],
  });
}
