import { normaliseGpuModel } from '../kit/gpu-resources.js';

/** GPUs on one node of a CoreWeave instance type, and their model. */
export interface CoreWeaveShape {
  gpus: number;
  model: string;
}

// CKS instance types name their GPUs: `gd-8xh100ib-i128` is 8 H100 (InfiniBand), `gd-1xgh200` one
// GH200; rack-scale `gb200-4x` / `gb300-4x` nodes carry 4 Blackwell GPUs each (CoreWeave docs,
// "Instances"). `cd-*` are CPU nodes.
const GD = /^gd-([0-9]+)x([a-z0-9]+?)(?:ib)?(?:-.*)?$/;
const RACK = /^(gb[0-9]{3})-([0-9]+)x$/;

/** The GPUs per node of a CoreWeave instance type; `cpu` for CPU types; null when not known. */
export function coreWeaveShape(instanceType: string): CoreWeaveShape | 'cpu' | null {
  const type = instanceType.trim().toLowerCase();
  if (/^cd-/.test(type)) return 'cpu';
  const gd = GD.exec(type);
  if (gd?.[1] !== undefined && gd[2] !== undefined) return shape(Number(gd[1]), gd[2]);
  const rack = RACK.exec(type);
  if (rack?.[1] !== undefined && rack[2] !== undefined) return shape(Number(rack[2]), rack[1]);
  return null;
}

function shape(gpus: number, token: string): CoreWeaveShape | null {
  if (!Number.isSafeInteger(gpus) || gpus < 1 || gpus > 64) return null;
  // A model the price list does not know keeps the name's own spelling, upper-cased as NVIDIA writes it.
  const known = normaliseGpuModel(token);
  return { gpus, model: known === token ? token.toUpperCase() : known };
}
