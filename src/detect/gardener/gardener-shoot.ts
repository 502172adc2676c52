import { readString, readWholeCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import { accountedOf } from '../parser.js';
import { cloudProfiles, profileAccount, shootProfileName } from './gardener-cloud-profile.js';
import type { ProfileTypes } from './gardener-cloud-profile.js';
import { workerGpus } from './gardener-worker-gpus.js';
import type { WorkerTypeSource } from './gardener-worker-gpus.js';

const KIND = 'gardener-worker' as const;
const API = /^core\.gardener\.cloud\//;
// Kyma Infrastructure Manager's Runtime carries a Shoot's provider, whose pools it passes to Gardener as written.
const KYMA_API = /^infrastructuremanager\.kyma-project\.io\//;
// The extension contract's Worker, which gardenlet writes from a Shoot and some operators keep as files.
const EXTENSION_API = /^extensions\.gardener\.cloud\//;
const MARKERS = /core\.gardener\.cloud\/|extensions\.gardener\.cloud\/|infrastructuremanager\.kyma-project\.io\//;

/**
 * Gardener Shoots (`core.gardener.cloud` Shoot): each entry of `spec.provider.workers` is a worker
 * pool the cluster-autoscaler grows up to `maximum` machines in all, spread over its zones
 * (Gardener, "Shoot API": minimum and maximum are divided among the zones), each machine with the
 * GPUs of its `machine.type` and, on GCP, those its `providerConfig.gpu` attaches. A pool is named
 * `<shoot>/<worker>`: worker names repeat from one Shoot to the next. A Kyma `Runtime`
 * (infrastructuremanager.kyma-project.io) is read the same way: its `spec.shoot.provider` holds
 * `workers` and `additionalWorkers` of Gardener's shape, made into the Shoot `spec.shoot.name`.
 * An extension `Worker` (extensions.gardener.cloud, the contract a provider extension reconciles
 * into machines) holds the same pools as `spec.pools`, each with a flat `machineType`, named
 * `<namespace>/<pool>`. A machine type the cloud catalog does not know is looked up in the
 * CloudProfile the Shoot names when the file, or one beside it (context-objects.ts), holds it.
 */
export const gardenerShootParser = yamlParser('gardener-shoot', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const profiles = cloudProfiles(scan.manifests);
  for (const m of scan.manifests) {
    if (m.kind === 'Shoot' && API.test(m.apiVersion ?? '')) readShoot(m, profiles, found);
    if (m.kind === 'Runtime' && KYMA_API.test(m.apiVersion ?? '')) readRuntime(m, found);
    if (m.kind === 'Worker' && EXTENSION_API.test(m.apiVersion ?? '')) readExtensionWorker(m, found);
  }
  const { accounted, notFollowed } = profileAccount(scan.manifests);
  found.notFollowed.push(...notFollowed);
  const result = found.result(text);
  return accounted.length === 0 ? result : { ...result, accounted: [...accountedOf(result), ...accounted] };
});

function readShoot(m: Manifest, profiles: ReadonlyMap<string, ProfileTypes>, found: Findings): void {
  const profileName = shootProfileName(m);
  const profile = profileName === null ? undefined : profiles.get(profileName);
  readProvider(m, mapGet(mapGet(m.root, 'spec'), 'provider'), m.name ?? '(unnamed)', ['workers'], found, profile);
}

function readExtensionWorker(m: Manifest, found: Findings): void {
  const spec = mapGet(m.root, 'spec');
  const type = readString(mapGet(spec, 'type'), m.ctx);
  const cloud = type !== null && 'value' in type ? type.value : null;
  const namespace = readString(mapGet(mapGet(m.root, 'metadata'), 'namespace'), m.ctx);
  const owner = namespace !== null && 'value' in namespace ? namespace.value : (m.name ?? '(unnamed)');
  for (const pool of seqItems(mapGet(spec, 'pools')))
    readWorker(m, pool, owner, cloud, { typeNode: mapGet(pool, 'machineType') }, 'Gardener Worker pool', found);
}

function readRuntime(m: Manifest, found: Findings): void {
  const shoot = mapGet(mapGet(m.root, 'spec'), 'shoot');
  const shootName = readString(mapGet(shoot, 'name'), m.ctx);
  const name = shootName !== null && 'value' in shootName ? shootName.value : (m.name ?? '(unnamed)');
  readProvider(m, mapGet(shoot, 'provider'), name, ['workers', 'additionalWorkers'], found);
}

function readProvider(
  m: Manifest,
  provider: unknown,
  shoot: string,
  lists: readonly string[],
  found: Findings,
  profile?: ProfileTypes,
): void {
  const type = readString(mapGet(provider, 'type'), m.ctx);
  const cloud = type !== null && 'value' in type ? type.value : null;
  for (const list of lists)
    for (const worker of seqItems(mapGet(provider, list))) {
      const source: WorkerTypeSource = { typeNode: mapGet(mapGet(worker, 'machine'), 'type'), ...(profile ? { profile } : {}) };
      readWorker(m, worker, shoot, cloud, source, 'Gardener Shoot worker', found);
    }
}

function readWorker(
  m: Manifest,
  worker: unknown,
  shoot: string,
  cloud: string | null,
  source: WorkerTypeSource,
  what: string,
  found: Findings,
): void {
  const line = nodeLine(worker, m.ctx.lc) ?? m.line;
  const workerName = readString(mapGet(worker, 'name'), m.ctx);
  const name = `${shoot}/${workerName !== null && 'value' in workerName ? workerName.value : '(unnamed)'}`;
  const where = `${what} ${name}`;
  const perMachine = workerGpus(worker, cloud, m.ctx, line, source);
  if (perMachine.kind === 'cpu') return;
  if (perMachine.kind === 'unprofiled') {
    // Whether its machines carry GPUs is the CloudProfile's to say: a pool whose type or bounds
    // change is not followed; one left as it was (a label edited beside it) is no change.
    const bound = (key: string) => {
      const c = readWholeCount(mapGet(worker, key), m.ctx, line);
      return c === null ? null : c.ok ? c.value : c.error;
    };
    found.notFollowed.push({
      file: m.ctx.file,
      line: perMachine.line,
      reason: 'count-unknown',
      subject: name,
      needs: `its machine type ${perMachine.type} may be a GPU flavour, and no CloudProfile in the repository lists it with its \`gpu\`: keep the CloudProfile the Shoot names in the repository`,
      fingerprint: JSON.stringify(['gardener-unprofiled', name, perMachine.type, bound('maximum'), bound('minimum')]),
    });
    return;
  }
  if (perMachine.kind === 'unknown') {
    found.note(perMachine.line, 'warning', `${where}: ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, perMachine.line);
    return;
  }
  const max = readWholeCount(mapGet(worker, 'maximum'), m.ctx, line);
  const min = readWholeCount(mapGet(worker, 'minimum'), m.ctx, line);
  if (max === null || !max.ok) {
    const why = max === null ? 'has no maximum' : `maximum ${max.error}`;
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
