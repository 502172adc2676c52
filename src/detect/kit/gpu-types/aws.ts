import { family } from './types.js';
import type { GpuInstanceType } from './types.js';

/**
 * EC2 instance types with NVIDIA GPUs. Prices are approximate public on-demand Linux list
 * prices in us-east-1 (USD per instance-hour); they are defaults only, and the policy's
 * `prices` map overrides them per GPU model.
 */
export const AWS_TYPES: readonly GpuInstanceType[] = [
  // Previous generations, still in older blueprints (eksctl/kubeflow examples).
  ...family('aws', 'K80', [
    ['p2.xlarge', 1, 0.9],
    ['p2.8xlarge', 8, 7.2],
    ['p2.16xlarge', 16, 14.4],
  ]),
  ...family('aws', 'M60', [
    ['g3s.xlarge', 1, 0.75],
    ['g3.4xlarge', 1, 1.14],
    ['g3.8xlarge', 2, 2.28],
    ['g3.16xlarge', 4, 4.56],
  ]),
  ...family('aws', 'V100', [
    ['p3.2xlarge', 1, 3.06],
    ['p3.8xlarge', 4, 12.24],
    ['p3.16xlarge', 8, 24.48],
    ['p3dn.24xlarge', 8, 31.22],
  ]),
  ...family('aws', 'A100', [
    ['p4d.24xlarge', 8, 21.96],
    ['p4de.24xlarge', 8, 27.45],
  ]),
  ...family('aws', 'H100', [
    ['p5.4xlarge', 1, 6.88],
    ['p5.48xlarge', 8, 55.04],
  ]),
  ...family('aws', 'H200', [
    ['p5e.48xlarge', 8, 63.3],
    ['p5en.48xlarge', 8, 63.3],
  ]),
  ...family('aws', 'B200', [['p6-b200.48xlarge', 8, 113.93]]),
  ...family('aws', 'T4', [
    ['g4dn.xlarge', 1, 0.526],
    ['g4dn.2xlarge', 1, 0.752],
    ['g4dn.4xlarge', 1, 1.204],
    ['g4dn.8xlarge', 1, 2.176],
    ['g4dn.16xlarge', 1, 4.352],
    ['g4dn.12xlarge', 4, 3.912],
    ['g4dn.metal', 8, 7.824],
  ]),
  ...family('aws', 'T4G', [
    ['g5g.xlarge', 1, 0.42],
    ['g5g.2xlarge', 1, 0.556],
    ['g5g.4xlarge', 1, 0.828],
    ['g5g.8xlarge', 1, 1.372],
    ['g5g.16xlarge', 2, 2.744],
    ['g5g.metal', 2, 2.744],
  ]),
  ...family('aws', 'A10G', [
    ['g5.xlarge', 1, 1.006],
    ['g5.2xlarge', 1, 1.212],
    ['g5.4xlarge', 1, 1.624],
    ['g5.8xlarge', 1, 2.448],
    ['g5.16xlarge', 1, 4.096],
    ['g5.12xlarge', 4, 5.672],
    ['g5.24xlarge', 4, 8.144],
    ['g5.48xlarge', 8, 16.288],
  ]),
  ...family('aws', 'L4', [
    ['g6.xlarge', 1, 0.805],
    ['g6.2xlarge', 1, 0.978],
    ['g6.4xlarge', 1, 1.323],
    ['g6.8xlarge', 1, 2.014],
    ['g6.16xlarge', 1, 3.397],
    ['g6.12xlarge', 4, 4.602],
    ['g6.24xlarge', 4, 6.675],
    ['g6.48xlarge', 8, 13.35],
    ['gr6.4xlarge', 1, 1.539],
    ['gr6.8xlarge', 1, 2.446],
    // g6f carries a fraction of one L4; EC2 reports 0 GPUs for it (Karpenter NodeOverlay fixes that).
    ['g6f.large', 0.125, 0.201],
    ['g6f.xlarge', 0.125, 0.253],
    ['g6f.2xlarge', 0.25, 0.402],
    ['g6f.4xlarge', 0.5, 0.805],
  ]),
  ...family('aws', 'L40S', [
    ['g6e.xlarge', 1, 1.861],
    ['g6e.2xlarge', 1, 2.242],
    ['g6e.4xlarge', 1, 3.004],
    ['g6e.8xlarge', 1, 4.529],
    ['g6e.16xlarge', 1, 7.577],
    ['g6e.12xlarge', 4, 10.493],
    ['g6e.24xlarge', 4, 15.066],
    ['g6e.48xlarge', 8, 30.131],
  ]),
];

/** GPU model per EC2 family, for Karpenter pools that allow a whole family. */
export const AWS_FAMILY_MODELS: Readonly<Record<string, string>> = {
  p2: 'K80',
  g3: 'M60',
  g3s: 'M60',
  p3: 'V100',
  p3dn: 'V100',
  p4d: 'A100',
  p4de: 'A100',
  p5: 'H100',
  p5e: 'H200',
  p5en: 'H200',
  'p6-b200': 'B200',
  'p6e-gb200': 'GB200',
  g4dn: 'T4',
  g5g: 'T4G',
  g5: 'A10G',
  g6: 'L4',
  gr6: 'L4',
  g6f: 'L4',
  g6e: 'L40S',
  g7e: 'RTX PRO 6000',
};
