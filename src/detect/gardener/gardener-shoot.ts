import { readString, readWholeCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import { workerGpus } from './gardener-worker-gpus.js';

const KIND = 'gardener-worker' as const;
const API = /^core\.gardener\.cloud\//;
// Kyma Infrastructure Manager's Runtime carries a Shoot's provider, whose pools it passes to Gardener as written.
const KYMA_API = /^infrastructuremanager\.kyma-project\.io\//;
const MARKERS = /core\.gardener\.cloud\/|infrastructuremanager\.kyma-project\.io\//;

/**
 * Gardener Shoots (`core.gardener.cloud` Shoot): each entry of `spec.provider.workers` is a worker
 * pool the cluster-autoscaler grows up to `maximum` machines in all, spread over its zones
 * (Gardener, "Shoot API": minimum and maximum are divided among the zones), each machine with the
 * GPUs of its `machine.type` and, on GCP, those its `providerConfig.gpu` attaches. A pool is named
 * `<shoot>/<worker>`: worker names repeat from one Shoot to the next. A Kyma `Runtime`
 * (infrastructuremanager.kyma-project.io) is read the same way: its `spec.shoot.provider` holds
 * `workers` and `additionalWorkers` of Gardener's shape, made into the Shoot `spec.shoot.name`.
 */
export const gardenerShootParser = yamlParser('gardener-shoot', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  for (const m of scan.manifests) {
    if (m.kind === 'Shoot' && API.test(m.apiVersion ?? '')) readShoot(m, found);
    if (m.kind === 'Runtime' && KYMA_API.test(m.apiVersion ?? '')) readRuntime(m, found);
  }
  return found.result(text);
});

function readShoot(m: Manifest, found: Findings): void {
  readProvider(m, mapGet(mapGet(m.root, 'spec'), 'provider'), m.name ?? '(unnamed)', ['workers'], found);
}

function readRuntime(m: Manifest, found: Findings): void {
  const shoot = mapGet(mapGet(m.root, 'spec'), 'shoot');
  const shootName = readString(mapGet(shoot, 'name'), m.ctx);
  const name = shootName !== null && 'value' in shootName ? shootName.value : (m.name ?? '(unnamed)');
  readProvider(m, mapGet(shoot, 'provider'), name, ['workers', 'additionalWorkers'], found);
}

function readProvider(m: Manifest, provider: unknown, shoot: string, lists: readonly string[], found: Findings): void {
  const type = readString(mapGet(provider, 'type'), m.ctx);
  const cloud = type !== null && 'value' in type ? type.value : null;
  for (const list of lists) for (const worker of seqItems(mapGet(provider, list))) readWorker(m, worker, shoot, cloud, found);
}

function readWorker(m: Manifest, worker: unknown, shoot: string, cloud: string | null, found: Findings): void {
  const line = nodeLine(worker, m.ctx.lc) ?? m.line;
  const workerName = readString(mapGet(worker, 'name'), m.ctx);
  const name = `${shoot}/${workerName !== null && 'value' in workerName ? workerName.value : '(unnamed)'}`;
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
