import { family } from './types.js';
import type { GpuInstanceType } from './types.js';

/**
 * Azure VM sizes with NVIDIA GPUs (NC, ND, NV families). Approximate pay-as-you-go Linux list
 * prices in East US (USD per VM-hour); defaults that the policy's `prices` overrides.
 * NVadsA10 v5 sizes below NV36 get a fraction of one A10.
 */
export const AZURE_TYPES: readonly GpuInstanceType[] = [
  // Retired series (NC, NCv2, ND, NV v1) that older AKS modules and docs still name.
  ...family('azure', 'K80', [
    ['Standard_NC6', 1, 0.9],
    ['Standard_NC12', 2, 1.8],
    ['Standard_NC24', 4, 3.6],
    ['Standard_NC24r', 4, 3.96],
  ]),
  ...family('azure', 'P100', [
    ['Standard_NC6s_v2', 1, 2.07],
    ['Standard_NC12s_v2', 2, 4.14],
    ['Standard_NC24s_v2', 4, 8.28],
    ['Standard_NC24rs_v2', 4, 9.11],
  ]),
  ...family('azure', 'P40', [
    ['Standard_ND6s', 1, 2.07],
    ['Standard_ND12s', 2, 4.14],
    ['Standard_ND24s', 4, 8.28],
    ['Standard_ND24rs', 4, 9.11],
  ]),
  ...family('azure', 'M60', [
    ['Standard_NV6', 1, 1.14],
    ['Standard_NV12', 2, 2.28],
    ['Standard_NV24', 4, 4.56],
  ]),
  ...family('azure', 'V100', [
    ['Standard_NC6s_v3', 1, 3.06],
    ['Standard_NC12s_v3', 2, 6.12],
    ['Standard_NC24s_v3', 4, 12.24],
    ['Standard_NC24rs_v3', 4, 13.46],
    ['Standard_ND40rs_v2', 8, 22.03],
  ]),
  ...family('azure', 'T4', [
    ['Standard_NC4as_T4_v3', 1, 0.526],
    ['Standard_NC8as_T4_v3', 1, 0.752],
    ['Standard_NC16as_T4_v3', 1, 1.204],
    ['Standard_NC64as_T4_v3', 4, 4.352],
  ]),
  ...family('azure', 'A10', [
    ['Standard_NC8ads_A10_v4', 1, 1.1],
    ['Standard_NC16ads_A10_v4', 1, 1.6],
    ['Standard_NC32ads_A10_v4', 2, 3.2],
    ['Standard_NV6ads_A10_v5', 1 / 6, 0.454],
    ['Standard_NV12ads_A10_v5', 1 / 3, 0.908],
    ['Standard_NV18ads_A10_v5', 0.5, 1.6],
    ['Standard_NV36ads_A10_v5', 1, 3.2],
    ['Standard_NV36adms_A10_v5', 1, 4.52],
    ['Standard_NV72ads_A10_v5', 2, 6.52],
  ]),
  ...family('azure', 'M60', [
    ['Standard_NV12s_v3', 1, 1.14],
    ['Standard_NV24s_v3', 2, 2.28],
    ['Standard_NV48s_v3', 4, 4.56],
  ]),
  ...family('azure', 'A100', [
    ['Standard_NC24ads_A100_v4', 1, 3.673],
    ['Standard_NC48ads_A100_v4', 2, 7.346],
    ['Standard_NC96ads_A100_v4', 4, 14.692],
    ['Standard_ND96asr_v4', 8, 27.197],
    ['Standard_ND96amsr_A100_v4', 8, 32.77],
  ]),
  ...family('azure', 'H100', [
    ['Standard_NC40ads_H100_v5', 1, 6.98],
    ['Standard_NC80adis_H100_v5', 2, 13.96],
    ['Standard_ND96isr_H100_v5', 8, 98.32],
  ]),
  ...family('azure', 'H200', [['Standard_ND96isr_H200_v5', 8, 110.24]]),
  ...family('azure', 'RTX PRO 6000', [['Standard_NC128ds_xl_RTXPRO6000BSE_v6', 1, 6.38]]),
];
