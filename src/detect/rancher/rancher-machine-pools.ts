import type { Node } from 'yaml';
import { readString, readWholeCount } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, nodeSource, seqItems } from '../kit/yaml-nodes.js';
import { accountedOf } from '../parser.js';
import type { AccountedLines } from '../parser.js';
import { machineConfigGpus } from './machine-config-gpus.js';

// Rancher provisions each machine pool as a Cluster API MachineDeployment of its machines.
const KIND = 'capi-machinedeployment' as const;
const CLUSTER_API = /^provisioning\.cattle\.io\//;
const CONFIG_API = /^rke-machine-config\.cattle\.io\//;
const MARKERS = /provisioning\.cattle\.io\/|rke-machine-config\.cattle\.io\//;

/**
 * Rancher's node-driver clusters (`provisioning.cattle.io/v1` Cluster, RKE2 and K3s): each entry of
 * `spec.rkeConfig.machinePools` is a pool of `quantity` machines (Rancher's default 1), grown up to
 * `autoscalingMaxSize` where the pool autoscales, each made from the machine config its
 * `machineConfigRef` names (`rke-machine-config.cattle.io`: an Amazonec2Config's `instanceType`,
 * an AzureConfig's `size` …). The config is read from the file, or from one beside it
 * (context-objects.ts). A pool whose config the review does not hold cannot be told: it is not
 * followed when its count or its config's name changes, fingerprinted by both, so a Cluster edit
 * that leaves them be (a Kubernetes version) holds nothing up. A pool is named `<cluster>/<pool>`.
 */
export const rancherMachinePoolsParser = yamlParser('rancher-machine-pools', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const configs = new Map<string, Manifest>();
  for (const m of scan.manifests) if (CONFIG_API.test(m.apiVersion ?? '') && m.name !== null) configs.set(`${m.kind ?? ''}/${m.name}`, m);
  const used = new Set<Manifest>();
  for (const m of scan.manifests) {
    if (m.kind !== 'Cluster' || !CLUSTER_API.test(m.apiVersion ?? '')) continue;
    for (const pool of seqItems(mapGet(mapGet(mapGet(m.root, 'spec'), 'rkeConfig'), 'machinePools')))
      readPool(m, pool, configs, used, found);
  }
  for (const config of configs.values()) if (!used.has(config)) unusedConfig(config, found);
  const result = found.result(text);
  if (used.size === 0) return result;
  // The configs a pool was counted with are read in full: their machine types are accounted for.
  return { ...result, accounted: [...accountedOf(result), ...[...used].flatMap(objectLines)] };
});

function readPool(m: Manifest, pool: unknown, configs: ReadonlyMap<string, Manifest>, used: Set<Manifest>, found: Findings): void {
  const line = nodeLine(pool, m.ctx.lc) ?? m.line;
  const poolName = readString(mapGet(pool, 'name'), m.ctx);
  const name = `${m.name ?? '(unnamed)'}/${poolName !== null && 'value' in poolName ? poolName.value : '(unnamed)'}`;
  const where = `Rancher machine pool ${name}`;
  const ref = mapGet(pool, 'machineConfigRef');
  const kind = readString(mapGet(ref, 'kind'), m.ctx);
  const configName = readString(mapGet(ref, 'name'), m.ctx);
  const key = kind !== null && configName !== null && 'value' in kind && 'value' in configName ? `${kind.value}/${configName.value}` : null;
  const config = key === null ? undefined : configs.get(key);
  const quantity = mapGet(pool, 'quantity');
  const max = mapGet(pool, 'autoscalingMaxSize');
  if (config === undefined) {
    found.notFollowed.push({
      file: m.ctx.file,
      line,
      reason: 'gpu-reference',
      subject: `${where}`,
      needs: key === null ? 'its machineConfigRef' : `the machine config ${key}`,
      inputs: ['quantity', 'autoscalingMaxSize', 'machineConfigRef'],
      fingerprint: JSON.stringify([nodeSource(quantity, m.ctx.text), nodeSource(max, m.ctx.text), nodeSource(ref, m.ctx.text)]),
    });
    return;
  }
  used.add(config);
  const perMachine = machineConfigGpus(config);
  if (perMachine.kind === 'cpu') return;
  if (perMachine.kind === 'unknown') {
    found.note(line, 'warning', `${where}: ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, line);
    return;
  }
  // Rancher makes a pool of one machine when quantity is not given; an autoscaled pool grows to its maximum.
  const counts = [readWholeCount(quantity, m.ctx, line), readWholeCount(max, m.ctx, line)];
  const bad = counts.find((c) => c?.ok === false);
  if (bad?.ok === false) {
    found.note(
      bad.line,
      'warning',
      `${where}: a machine count ${bad.error}; with ${perMachine.gpus} GPUs per machine its GPUs are not counted`,
    );
    found.unknown(KIND, name, bad.line);
    return;
  }
  const [q, auto] = counts.map((c) => (c?.ok === true ? c : null));
  const machines = Math.max(q?.value ?? 1, auto?.value ?? 0);
  const countLine = (auto?.value === machines ? auto.line : q?.line) ?? line;
  const gpus = machines * perMachine.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: countLine,
    kind: KIND,
    name,
    gpuModel: perMachine.model,
    gpus,
    gpuStep: perMachine.gpus,
    parts: [{ label: `pool ${name}: ${machines} × ${perMachine.type}`, resource: PRIMARY_GPU_RESOURCE, gpus, line: countLine }],
  });
}

/**
 * A machine config no pool here uses (a chart renders configs and the Cluster from templates of
 * their own; a repository keeps them apart): one with GPUs sizes the pools that name it, which the
 * review does not see here. Not followed, fingerprinted by what it makes, so only a change of its
 * machine (a type turned GPU, another GPU count) holds the review up.
 */
function unusedConfig(config: Manifest, found: Findings): void {
  const perMachine = machineConfigGpus(config);
  if (perMachine.kind === 'cpu') return;
  const what = perMachine.kind === 'gpu' ? `${perMachine.type}, ${perMachine.gpus} GPUs per machine` : perMachine.why;
  found.notFollowed.push({
    file: config.ctx.file,
    line: perMachine.kind === 'unknown' ? perMachine.line : config.line,
    reason: 'gpu-reference',
    subject: `${config.kind ?? 'machine config'} ${config.name ?? '(unnamed)'}`,
    needs: 'the Rancher machine pools that name it',
    inputs: [what],
    fingerprint: what,
  });
}

function objectLines(m: Manifest): AccountedLines[] {
  const end = (m.root as Node | null)?.range?.[1];
  if (end === undefined) return [];
  return [{ file: m.ctx.file, from: m.line, to: m.ctx.lc.linePos(Math.max(0, end - 1)).line }];
}
