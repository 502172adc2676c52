import { looksLikeGpuType } from './gpu-types/index.js';
import { OTHER_GPU_TYPES } from './gpu-types/families.js';

// Words that only GPU capacity, its resources or its machines use.
const GPU_WORD_RE = /gpu|nvidia|accelerator|amd\.com|habana|neuron|\btpu/i;
// Instance / machine / VM type names, to be checked against the GPU type patterns.
// Underscores too: Azure VM sizes are Standard_NC24ads_A100_v4.
const TYPE_TOKEN_RE = /[A-Za-z][\w]*[._-][\w.-]*\w/g;

// The GPU machine names of other clouds (CoreWeave `gd-8xh100ib-i128`, Crusoe `a100-80gb.1x`), one at a time.
// Their flags but `g`: a name a cloud takes in either case (Scaleway's) is matched so here too.
const OTHER_TYPES_RE = OTHER_GPU_TYPES.map((t) => new RegExp(t.pattern.source, t.pattern.flags.replace('g', '')));

/** True when a value names a GPU: a GPU word, or a GPU machine type. */
export function namesGpu(text: string): boolean {
  if (GPU_WORD_RE.test(text) || OTHER_TYPES_RE.some((re) => re.test(text))) return true;
  for (const m of text.matchAll(TYPE_TOKEN_RE)) if (looksLikeGpuType(m[0])) return true;
  return false;
}

// Input names that size a pool or a quota, or pick its machines.
const SIZING_RE =
  /gpu|accelerator|node_?count|nodes?$|node_?pools?|node_?groups?|instance_?types?|machine_?type|vm_?size|(^|_)(min|max|desired)(_|$)|size$|count$|replicas|quota|capacity|limits?$|pools?$|agents?_/i;

/** True when the key names something that sizes GPU capacity or chooses its hardware. */
export function sizesCapacity(key: string): boolean {
  return SIZING_RE.test(key);
}
