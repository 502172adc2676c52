import { readCount, readString } from '../kit/counts.js';
import type { CountRead } from '../kit/counts.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel, lookupInstanceType, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'openshift-machineset' as const;
// The kind may be quoted or tagged (`kind: !!str MachineAutoscaler`), as YAML reads alike.
const MARKERS = /machine\.openshift\.io\/|kind["']?\s*:\s*(?:[!&]\S*\s+)*["']?MachineAutoscaler/;

/**
 * OpenShift Machine API: a MachineSet's machines (`spec.replicas`, or the `maxReplicas` of a
 * MachineAutoscaler in the same file that scales it) × the GPUs of its instance type
 * (`providerSpec.value.instanceType` on AWS, `vmSize` on Azure, `machineType` or `gpus` on
 * GCP). A MachineAutoscaler whose MachineSet is not in the file cannot say how many GPUs a
 * machine has: when its target looks like a GPU set, a warning says its change is not counted.
 */
export const openshiftMachinesParser = yamlParser('openshift-machines', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const autoscalers = new Map<string, Manifest>();
  for (const m of scan.manifests) {
    if (m.kind !== 'MachineAutoscaler' || !(m.apiVersion ?? '').startsWith('autoscaling.openshift.io/')) continue;
    const target = readString(mapGet(mapGet(mapGet(m.root, 'spec'), 'scaleTargetRef'), 'name'), m.ctx);
    if (target !== null && 'value' in target) autoscalers.set(target.value, m);
  }
  const sets = new Set<string>();
  for (const m of scan.manifests) {
    if (m.kind !== 'MachineSet' || !(m.apiVersion ?? '').startsWith('machine.openshift.io/')) continue;
    if (m.name) sets.add(m.name);
    readMachineSet(m, m.name ? autoscalers.get(m.name) : undefined, found);
  }
  for (const [target, m] of autoscalers) {
    if (sets.has(target) || !/gpu|nvidia|\b[gp][3-9]/i.test(`${target} ${m.name ?? ''}`)) continue;
    const line = nodeLine(mapGet(mapGet(m.root, 'spec'), 'maxReplicas'), m.ctx.lc) ?? m.line;
    found.note(
      line,
      'warning',
      `MachineAutoscaler ${m.name ?? '(unnamed)'} scales MachineSet ${target}, which is not in this file: the GPUs of its machines are unknown, so a change to its maxReplicas is not counted`,
    );
  }
  return found.result(text);
});

function readMachineSet(m: Manifest, autoscaler: Manifest | undefined, found: Findings): void {
  const name = m.name ?? '(unnamed)';
  const value = mapGet(mapGet(mapGet(mapGet(mapGet(m.root, 'spec'), 'template'), 'spec'), 'providerSpec'), 'value');
  const perMachine = gpusPerMachine(m, value);
  if (perMachine === null) return;
  if ('why' in perMachine) {
    found.note(perMachine.line, 'warning', `MachineSet ${name}: ${perMachine.why}; its GPUs are not counted`);
    found.unknown(KIND, name, perMachine.line);
    return;
  }
  const scaled = autoscaler ? readCount(mapGet(mapGet(autoscaler.root, 'spec'), 'maxReplicas'), autoscaler.ctx, autoscaler.line) : null;
  const count: CountRead = scaled ??
    readCount(mapGet(mapGet(m.root, 'spec'), 'replicas'), m.ctx, m.line) ?? { ok: true, value: 1, line: m.line };
  if (!count.ok) {
    found.note(
      count.line,
      'warning',
      `MachineSet ${name}: ${scaled ? "the MachineAutoscaler's maxReplicas" : 'replicas'} ${count.why}; its GPUs are not counted`,
    );
    found.unknown(KIND, name, count.line);
    return;
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
        label: `${count.value} × ${perMachine.type}${scaled ? ' (MachineAutoscaler maxReplicas)' : ''}`,
        resource: PRIMARY_GPU_RESOURCE,
        gpus,
        line: count.line,
      },
    ],
  });
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
