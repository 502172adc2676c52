import { family } from './types.js';
import type { GpuInstanceType } from './types.js';

/**
 * Compute Engine machine types with attached NVIDIA GPUs. Approximate on-demand list prices
 * in us-central1 (USD per VM-hour, GPUs included); defaults that the policy's `prices` overrides.
 */
export const GCP_TYPES: readonly GpuInstanceType[] = [
  ...family('gcp', 'A100', [
    ['a2-highgpu-1g', 1, 3.673],
    ['a2-highgpu-2g', 2, 7.347],
    ['a2-highgpu-4g', 4, 14.694],
    ['a2-highgpu-8g', 8, 29.387],
    ['a2-megagpu-16g', 16, 55.739],
    ['a2-ultragpu-1g', 1, 5.069],
    ['a2-ultragpu-2g', 2, 10.138],
    ['a2-ultragpu-4g', 4, 20.276],
    ['a2-ultragpu-8g', 8, 40.552],
  ]),
  ...family('gcp', 'H100', [
    ['a3-highgpu-1g', 1, 11.06],
    ['a3-highgpu-2g', 2, 22.12],
    ['a3-highgpu-4g', 4, 44.25],
    ['a3-highgpu-8g', 8, 88.49],
    ['a3-megagpu-8g', 8, 88.49],
    ['a3-edgegpu-8g', 8, 88.49],
  ]),
  ...family('gcp', 'H200', [['a3-ultragpu-8g', 8, 84.81]]),
  ...family('gcp', 'B200', [['a4-highgpu-8g', 8, 119.0]]),
  ...family('gcp', 'L4', [
    ['g2-standard-4', 1, 0.707],
    ['g2-standard-8', 1, 0.854],
    ['g2-standard-12', 1, 1.0],
    ['g2-standard-16', 1, 1.147],
    ['g2-standard-32', 1, 1.733],
    ['g2-standard-24', 2, 2.0],
    ['g2-standard-48', 4, 4.0],
    ['g2-standard-96', 8, 8.0],
  ]),
];

/**
 * GKE `cloud.google.com/gke-accelerator` / guest accelerator names → GPU model. Longest names
 * first is not needed: the lookup is exact.
 */
export const GKE_ACCELERATORS: Readonly<Record<string, string>> = {
  'nvidia-tesla-k80': 'K80',
  'nvidia-tesla-p4': 'P4',
  'nvidia-tesla-p100': 'P100',
  'nvidia-tesla-v100': 'V100',
  'nvidia-tesla-t4': 'T4',
  'nvidia-tesla-a100': 'A100',
  'nvidia-a100-80gb': 'A100',
  'nvidia-l4': 'L4',
  'nvidia-h100-80gb': 'H100',
  'nvidia-h100-mega-80gb': 'H100',
  'nvidia-h200-141gb': 'H200',
  'nvidia-b200': 'B200',
  'nvidia-gb200': 'GB200',
  'nvidia-rtx-pro-6000': 'RTX PRO 6000',
};
