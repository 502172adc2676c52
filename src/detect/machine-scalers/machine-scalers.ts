import { readCount, readString } from '../kit/counts.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';

/** The kinds that stand for a group of machines: what a scaler of them adds is nodes. */
const MACHINE_GROUPS = new Set(['MachineSet', 'MachineDeployment', 'MachinePool']);
// A cheap look for a scale target of one of them; the parse checks the object itself.
const MARKERS = /scaleTargetRef[\s\S]*\bMachine(?:Set|Deployment|Pool)\b/;

/** The field each scaler bounds its target's replicas with, and its default when it is left out. */
const MAX_FIELD: Record<string, ScalerBound> = {
  // KEDA scales to 100 replicas when maxReplicaCount is not set.
  ScaledObject: { field: 'maxReplicaCount', default: 100 },
  HorizontalPodAutoscaler: { field: 'maxReplicas', default: null },
  MachineAutoscaler: { field: 'maxReplicas', default: null },
};
// The API groups of the scalers, so that another project's kind of the same name is not taken for one.
const SCALER_API = /^(?:autoscaling\.openshift\.io|keda\.sh|autoscaling)\//;

interface ScalerBound {
  field: string;
  default: number | null;
}

/** How an object bounds the replicas of what it scales; null when it is no scaler this reader knows. */
export function scalerBound(kind: string | null, apiVersion: string | null): ScalerBound | null {
  return SCALER_API.test(apiVersion ?? '') ? (MAX_FIELD[kind ?? ''] ?? null) : null;
}

interface MachineScaler {
  /** The scaler object: `MachineAutoscaler gpu-a10`. */
  scaler: string;
  /** Its target: kind and name, as `spec.scaleTargetRef` gives them. */
  targetKind: string;
  target: string;
  /** The most replicas it lets the target have, or why that is not known. */
  max: { value: number } | { why: string };
  line: number;
  /** What bounds the target, as written: the same at both sides means the same bound. */
  fingerprint: string;
  /** A scaler the OpenShift reader links to a MachineSet of the same file (see scalerBound). */
  known: boolean;
}

/**
 * The scalers of a file whose target is a group of machines: an OpenShift MachineAutoscaler, a
 * KEDA ScaledObject or a HorizontalPodAutoscaler whose `scaleTargetRef` is a MachineSet,
 * MachineDeployment or MachinePool. Each sets how many machines its target may have, whatever the
 * target's own `replicas` say. `sets` are the OpenShift MachineSets the file declares.
 */
function machineScalers(path: string, text: string): { scalers: MachineScaler[]; sets: Set<string> } {
  const scalers: MachineScaler[] = [];
  const sets = new Set<string>();
  for (const m of readManifests(path, text, () => true).manifests) {
    if (m.kind === 'MachineSet' && (m.apiVersion ?? '').startsWith('machine.openshift.io/') && m.name !== null) sets.add(m.name);
    const s = readScaler(m);
    if (s) scalers.push(s);
  }
  return { scalers, sets };
}

function readScaler(m: Manifest): MachineScaler | null {
  if (m.embedded) return null;
  const spec = mapGet(m.root, 'spec');
  const ref = mapGet(spec, 'scaleTargetRef');
  const kind = readString(mapGet(ref, 'kind'), m.ctx);
  if (kind === null || !('value' in kind) || !MACHINE_GROUPS.has(kind.value)) return null;
  const name = readString(mapGet(ref, 'name'), m.ctx);
  const target = name === null ? '(unnamed)' : 'value' in name ? name.value : name.template;
  // An unknown kind with a scale target is read as the Kubernetes scalers are.
  const bound = MAX_FIELD[m.kind ?? ''] ?? { field: 'maxReplicas', default: null };
  const node = mapGet(spec, bound.field);
  const count = readCount(node, m.ctx, m.line);
  const max =
    count === null
      ? bound.default === null
        ? { why: `sets no ${bound.field}` }
        : { value: bound.default }
      : count.ok
        ? { value: count.value }
        : { why: `${bound.field} ${count.error}` };
  return {
    scaler: `${m.kind ?? 'scaler'} ${m.name ?? '(unnamed)'}`,
    targetKind: kind.value,
    target,
    max,
    line: nodeLine(node, m.ctx.lc) ?? m.line,
    // By value, as go-yaml reads them: a name written as a block scalar, a bound spelt `0o4`, is the same target and bound.
    fingerprint: JSON.stringify([m.kind, kind.value, readString(mapGet(ref, 'apiVersion'), m.ctx), target, max]),
    known: scalerBound(m.kind, m.apiVersion) !== null,
  };
}

/**
 * A scaler of machines whose machines the review cannot see from its own file: how many GPUs each
 * of them has is in the target's instance type, elsewhere (another file, a Job that clones a
 * MachineSet, the cloud console). What it bounds is not followed while its bound or target changes;
 * the fingerprint lets the same bound at both sides pass, so a change to its other fields
 * (a KEDA trigger, a cooldown) is no capacity. A scaler beside the OpenShift MachineSet it scales
 * is read by the OpenShift reader, which counts the set's machines by the scaler's bound.
 */
export const machineScalersParser = yamlParser('machine-scalers', MARKERS, (path, text) => {
  const found = new Findings(path);
  const { scalers, sets } = machineScalers(path, text);
  for (const s of scalers) {
    if (s.known && s.targetKind === 'MachineSet' && sets.has(s.target)) continue;
    const bound = 'value' in s.max ? `up to ${s.max.value} machines` : `a number of machines it ${s.max.why}`;
    found.notFollowed.push({
      file: path,
      line: s.line,
      reason: 'count-unknown',
      subject: `${s.targetKind} ${s.target}`,
      needs: `${s.scaler} scales it to ${bound}, and how many GPUs each machine has is not in this file: declare the ${s.targetKind} in the same file as its scaler, or check its instance type by hand`,
      fingerprint: s.fingerprint,
    });
  }
  return found.result(text);
});
