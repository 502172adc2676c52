import { capiParser } from './capi.js';
import { clusterToolkitParser } from './cluster-toolkit.js';
import { eksctlParser } from './eksctl.js';
import { gkeNodePoolParser } from './gke-node-pool.js';
import { gpuSharingParser } from './gpu-sharing.js';
import { kaitoParser } from './kaito.js';
import { karpenterParser } from './karpenter.js';
import { kueueParser } from './kueue.js';
import type { CapacityParser } from './parser.js';
import { terraformParser } from './terraform/terraform-parser.js';

/** Every capacity format the detector knows; a new format is one more entry. */
export const PARSERS: readonly CapacityParser[] = [
  kueueParser,
  karpenterParser,
  eksctlParser,
  capiParser,
  gkeNodePoolParser,
  clusterToolkitParser,
  kaitoParser,
  gpuSharingParser,
  terraformParser,
];
