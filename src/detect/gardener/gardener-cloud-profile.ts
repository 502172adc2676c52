import type { Node } from 'yaml';
import { readCount, readString } from '../kit/counts.js';
import type { Manifest } from '../kit/manifests.js';
import { mapGet, nodeLine, seqItems } from '../kit/yaml-nodes.js';
import type { AccountedLines, Unfollowed } from '../parser.js';

/** The GPUs a CloudProfile gives one machine type, or why they cannot be read. */
export type ProfileType = { kind: 'gpus'; gpus: number } | { kind: 'unknown'; why: string };

/** One CloudProfile's machine types by name. */
export interface ProfileTypes {
  name: string;
  types: Map<string, ProfileType>;
}

const API = /^core\.gardener\.cloud\//;

/**
 * Gardener's CloudProfiles (`core.gardener.cloud` CloudProfile): `spec.machineTypes` lists each
 * machine type a Shoot of the profile may name, with the `gpu` count (a quantity, default 0) that
 * Gardener hands the cluster-autoscaler as the GPUs of one machine of the type. On providers whose
 * machine types the catalog does not list (OpenStack, STACKIT, IronCore, Alicloud …) this is the
 * only place that says how many GPUs a type has. Keyed by the profile's name.
 */
export function cloudProfiles(manifests: readonly Manifest[]): Map<string, ProfileTypes> {
  const out = new Map<string, ProfileTypes>();
  for (const m of manifests) {
    if (m.kind !== 'CloudProfile' || !API.test(m.apiVersion ?? '') || m.name === null) continue;
    const types = new Map<string, ProfileType>();
    for (const item of seqItems(mapGet(mapGet(m.root, 'spec'), 'machineTypes'))) {
      const name = readString(mapGet(item, 'name'), m.ctx);
      if (name === null || !('value' in name)) continue;
      const gpu = readCount(mapGet(item, 'gpu'), m.ctx, m.line);
      const read: ProfileType =
        gpu === null ? { kind: 'gpus', gpus: 0 } : gpu.ok ? { kind: 'gpus', gpus: gpu.value } : { kind: 'unknown', why: gpu.error };
      types.set(name.value, read.kind === 'gpus' && !Number.isInteger(read.gpus) ? { kind: 'unknown', why: 'a fraction' } : read);
    }
    out.set(m.name, { name: m.name, types });
  }
  return out;
}

/** What a CloudProfile's machine types account for, and the GPU types among them not followed. */
export interface ProfileAccount {
  accounted: AccountedLines[];
  notFollowed: Unfollowed[];
}

/**
 * A CloudProfile's machine types: one that reads as no GPU (`gpu: "0"`, or none) is no capacity,
 * whatever the change. One with GPUs sizes every Shoot of the profile that names it, which the
 * review sees only where it holds the Shoot: it is not followed, fingerprinted by its GPU count,
 * so a change that leaves the count as it was (a CPU type's memory, a new Kubernetes version)
 * holds nothing up, and one that changes it (or adds the type) is named.
 */
export function profileAccount(manifests: readonly Manifest[]): ProfileAccount {
  const out: ProfileAccount = { accounted: [], notFollowed: [] };
  for (const m of manifests) {
    if (m.kind !== 'CloudProfile' || !API.test(m.apiVersion ?? '')) continue;
    for (const item of seqItems(mapGet(mapGet(m.root, 'spec'), 'machineTypes'))) {
      const from = nodeLine(item, m.ctx.lc);
      const end = (item as Node | null)?.range?.[1];
      if (from === null || end === undefined) continue;
      out.accounted.push({ file: m.ctx.file, from, to: m.ctx.lc.linePos(Math.max(0, end - 1)).line });
      const gpu = readCount(mapGet(item, 'gpu'), m.ctx, m.line);
      if (gpu === null || (gpu.ok && gpu.value === 0)) continue;
      const name = readString(mapGet(item, 'name'), m.ctx);
      const type = name === null ? '(unnamed)' : 'value' in name ? name.value : name.template;
      const count = gpu.ok ? String(gpu.value) : gpu.error;
      out.notFollowed.push({
        file: m.ctx.file,
        line: gpu.line,
        reason: 'gpu-reference',
        subject: `CloudProfile ${m.name ?? '(unnamed)'} machine type ${type}`,
        needs: `the Shoots of CloudProfile ${m.name ?? '(unnamed)'} that name ${type}`,
        inputs: [`gpu: ${count}`],
        fingerprint: count,
      });
    }
  }
  return out;
}

/** The CloudProfile a Shoot names: `spec.cloudProfile` of kind CloudProfile, or the older `spec.cloudProfileName`. */
export function shootProfileName(shoot: Manifest): string | null {
  const spec = mapGet(shoot.root, 'spec');
  const ref = mapGet(spec, 'cloudProfile');
  const kind = readString(mapGet(ref, 'kind'), shoot.ctx);
  // A NamespacedCloudProfile adds types to its parent; it is not read, so its types stay unknown.
  if (kind !== null && (!('value' in kind) || kind.value !== 'CloudProfile')) return null;
  const name = readString(mapGet(ref, 'name'), shoot.ctx) ?? readString(mapGet(spec, 'cloudProfileName'), shoot.ctx);
  return name !== null && 'value' in name ? name.value : null;
}
