import { readCount, readString } from '../kit/counts.js';
import type { CountRead } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel, lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { accountedOf } from '../parser.js';
import type { AccountedLines } from '../parser.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import { scalerBound } from '../machine-scalers/machine-scalers.js';

const KIND = 'openshift-machineset' as const;
// The kind may be quoted or tagged (`kind: !!str MachineAutoscaler`), as YAML reads alike.
const MARKERS = /machine\.openshift\.io\/|kind["']?\s*:\s*(?:[!&]\S*\s+)*["']?MachineAutoscaler/;

/**
 * OpenShift Machine API: a MachineSet's machines (`spec.replicas`, or the bound of a scaler in the
 * same file that scales it: a MachineAutoscaler's `maxReplicas`, a KEDA ScaledObject's
 * `maxReplicaCount`, a HorizontalPodAutoscaler's `maxReplicas`) × the GPUs of its instance type
 * (`providerSpec.value.instanceType` on AWS, `vmSize` on Azure, `machineType` or `gpus` on
 * GCP). A scaler whose MachineSet is not in the file cannot say how many GPUs a machine has:
 * the machine scalers' reader (machine-scalers/) leaves it not followed.
 */
export const openshiftMachinesParser = yamlParser('openshift-machines', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const autoscalers = new Map<string, Manifest>();
  for (const m of scan.manifests) {
    if (scalerBound(m.kind, m.apiVersion) === null) continue;
    const ref = mapGet(mapGet(m.root, 'spec'), 'scaleTargetRef');
    const kind = readString(mapGet(ref, 'kind'), m.ctx);
    const target = readString(mapGet(ref, 'name'), m.ctx);
    if (kind === null || !('value' in kind) || kind.value !== 'MachineSet') continue;
    if (target !== null && 'value' in target) autoscalers.set(target.value, m);
  }
  // A set counted by its scaler's bound is anchored at the scaler: the set's own object is read too.
  const linked: AccountedLines[] = [];
  for (const m of scan.manifests) {
    if (m.kind !== 'MachineSet' || !(m.apiVersion ?? '').startsWith('machine.openshift.io/')) continue;
    const autoscaler = m.name ? autoscalers.get(m.name) : undefined;
    if (readMachineSet(m, autoscaler, found) && autoscaler)
      linked.push(...[m.line, autoscaler.line].map((line) => ({ file: path, from: line, to: line, object: true as const })));
  }
  const result = found.result(text);
  return linked.length === 0 ? result : { ...result, accounted: [...accountedOf(result), ...linked] };
});

/** Reads one MachineSet; true when it declares GPUs (counted or not). */
function readMachineSet(m: Manifest, autoscaler: Manifest | undefined, found: Findings): boolean {
  const name = m.name ?? '(unnamed)';
  const value = mapGet(mapGet(mapGet(mapGet(mapGet(m.root, 'spec'), 'template'), 'spec'), 'providerSpec'), 'value');
  const perMachine = gpusPerMachine(m, value);
  if (perMachine === null) return false;
  if ('why' in perMachine) {
    found.note(perMachine.line, 'warning', `MachineSet ${name}: ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, perMachine.line);
    return true;
  }
  const bound = autoscaler ? scalerBound(autoscaler.kind, autoscaler.apiVersion) : null;
  const scaled =
    autoscaler && bound
      ? (readCount(mapGet(mapGet(autoscaler.root, 'spec'), bound.field), autoscaler.ctx, autoscaler.line) ??
        (bound.default === null
          ? ({ ok: false, line: autoscaler.line, error: 'is not set' } as const)
          : { ok: true as const, value: bound.default, line: autoscaler.line }))
      : null;
  const by = autoscaler ? `the ${autoscaler.kind ?? 'scaler'}'s ${bound?.field ?? 'maxReplicas'}` : 'replicas';
  const count: CountRead = scaled ??
    readCount(mapGet(mapGet(m.root, 'spec'), 'replicas'), m.ctx, m.line) ?? { ok: true, value: 1, line: m.line };
  if (!count.ok) {
    found.note(count.line, 'warning', `MachineSet ${name}: ${by} ${count.error}; its GPUs are not counted`);
    found.unknown(KIND, name, count.line);
    return true;
  }
  const gpus = count.value * perMachine.gpus;
  found.decls.push({
    file: m.ctx.file,
    line: count.line,
    kind: KIND,
    name,
    gpuModel: perMachine.model,
    gpus,
    gpuStep: perMachine.gpus,
    parts: [
      {
        label: `${count.value} × ${perMachine.type}${autoscaler ? ` (${autoscaler.kind ?? 'scaler'} ${bound?.field ?? 'maxReplicas'})` : ''}`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: count.line,
      },
    ],
  });
  return true;
}

type PerMachine = { gpus: number; model: string | null; type: string } | { why: string; line: number };

function gpusPerMachine(m: Manifest, value: unknown): PerMachine | null {
  // GCP names its accelerators beside the machine type; a machine type alone may imply them (A2, G2).
  let accelerators = 0;
  let model: string | null = null;
  for (const g of seqItems(mapGet(value, 'gpus'))) {
    const count = readCount(mapGet(g, 'count'), m.ctx, m.line);
    const type = readString(mapGet(g, 'type'), m.ctx);
    if (count?.ok) accelerators += count.value;
    if (type && 'value' in type) model = acceleratorModel(type.value) ?? model;
  }
  for (const key of ['instanceType', 'vmSize', 'machineType']) {
    const node = mapGet(value, key);
    const type = readString(node, m.ctx);
    if (type === null) continue;
    const line = nodeLine(node, m.ctx.lc) ?? m.line;
    if ('template' in type)
      return /gpu|nvidia/i.test(m.ctx.text) ? { why: `${key} is the template expression ${type.template}`, line } : null;
    const row = lookupInstanceType(type.value);
    if (accelerators > 0) return { gpus: accelerators, model: model ?? row?.gpuModel ?? null, type: type.value };
    if (row) return { gpus: row.gpus, model: row.gpuModel, type: row.type };
    return looksLikeGpuType(type.value) ? { why: `${key} ${type.value} is not in the GPU catalog`, line } : null;
  }
  return null;
}
