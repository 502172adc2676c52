import { readFileSync } from 'node:fs';
import { _InstanceType } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { GPU_INSTANCE_TYPES } from '../../src/detect/kit/gpu-types/index.js';
import {
  AWS_GPU_FAMILIES,
  AWS_NOT_GPU_FAMILIES,
  AZURE_GPU_SERIES,
  AZURE_NOT_GPU_SERIES,
  GCP_GPU_FAMILIES,
  GCP_NOT_GPU_FAMILIES,
  OTHER_GPU_TYPES,
} from '../../src/detect/kit/gpu-types/families.js';
import { NOT_GPU_RESOURCES } from '../../src/detect/kit/gpu-resources.js';
import { accountSignals } from '../../src/detect/kit/signal-scan/account.js';

/** The names of a list the signal scan takes for GPU machines, read as the values of a YAML list. */
function gpuNames(names: readonly string[]): Set<string> {
  const text = `types:\n${names.map((n) => `  - ${n}`).join('\n')}\n`;
  return new Set(
    accountSignals('types.yaml', text)
      .signals.filter((s) => s.kind !== 'gpu-key')
      .map((s) => s.token),
  );
}

const familyOf = (type: string) => type.split('.')[0] ?? type;

describe('GPU machine names against the clouds published lists', () => {
  const ec2 = Object.values(_InstanceType) as string[];

  it('EC2 (the API model as @aws-sdk/client-ec2 ships it): a type is a GPU machine exactly when its family has GPUs', () => {
    expect(ec2.length).toBeGreaterThan(1000);
    const found = gpuNames(ec2);
    const wrong = ec2.filter((t) => found.has(t) !== AWS_GPU_FAMILIES.includes(familyOf(t)));
    expect(wrong).toEqual([]);
  });

  it('EC2: every family of accelerated instances is listed, as GPUs or as accelerators that are not', () => {
    const accelerated = new Set(ec2.map(familyOf).filter((f) => /^(?:p|g|gr|trn|inf|dl|f|vt)[0-9]/.test(f)));
    const known = new Set([...AWS_GPU_FAMILIES, ...AWS_NOT_GPU_FAMILIES.map((f) => f.family)]);
    expect([...accelerated].filter((f) => !known.has(f))).toEqual([]);
    // Families listed that EC2 no longer names are kept for older files, but must look like EC2's.
    for (const f of AWS_GPU_FAMILIES) expect(f).toMatch(/^(?:p|g|gr)[0-9][a-z0-9-]*$/);
  });

  it('EC2: SageMaker names (`ml.p5.48xlarge`) are GPU machines too', () => {
    expect([...gpuNames(['ml.p5.48xlarge', 'ml.g5.2xlarge', 'ml.m5.large', 'ml.trn1.32xlarge'])]).toEqual([
      'ml.p5.48xlarge',
      'ml.g5.2xlarge',
    ]);
  });

  it('Azure (the Compute API model as @azure/arm-compute 24.1.0 lists it): NC, ND, NV and NG sizes, no other', () => {
    const sizes = readFileSync(new URL('./fixtures/published/azure-vm-sizes.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(sizes.length).toBeGreaterThan(100);
    const found = gpuNames(sizes);
    expect(sizes.filter((s) => found.has(s) !== /^Standard_N[CDVG][0-9]/i.test(s))).toEqual([]);
    expect(sizes.filter((s) => found.has(s)).length).toBeGreaterThan(10);
  });

  it('every GPU family of Compute Engine and series of Azure listed is a GPU machine to the scan', () => {
    const names = [...GCP_GPU_FAMILIES.map((f) => `${f}-highgpu-8g`), ...AZURE_GPU_SERIES.map((s) => `Standard_${s}24ads_v5`)];
    expect([...gpuNames(names)]).toEqual(names);
  });

  it('every row of the instance catalogs is a GPU machine to the scan', () => {
    const names = GPU_INSTANCE_TYPES.map((t) => t.type);
    const found = gpuNames(names);
    expect(names.filter((n) => !found.has(n))).toEqual([]);
  });

  it.each([
    // Compute Engine: GPU machine families and accelerators; TPUs and CPU machines are not.
    ['a3-highgpu-8g', true],
    ['a3-megagpu-8g', true],
    ['a4x-highgpu-4g', true],
    ['g4-standard-48', true],
    ['g2-standard-24', true],
    ['nvidia-tesla-t4', true],
    ['nvidia-h100-mega-80gb', true],
    ['nvidia-l4', true],
    ['nvidia-rtx-pro-6000', true],
    ['n1-standard-8', false],
    ['c3-standard-4', false],
    ['e2-medium', false],
    ['ct5lp-hightpu-4t', false],
    ['ct6e-standard-8t', false],
    ['nvidia-k8s-device-plugin', false],
    ['nvidia-device-plugin', false],
    // Azure: FPGA series are not GPUs.
    ['Standard_NP10s', false],
    ['Standard_D4s_v5', false],
    // EC2 accelerators that are not GPUs.
    ['trn1.32xlarge', false],
    ['inf2.48xlarge', false],
    ['dl1.24xlarge', false],
    ['m7i.large', false],
    // AWS CDK and Pulumi names of EC2 GPU types.
    ['ec2.InstanceClass.P4D', true],
    ['ec2.InstanceClass.GRAPHICS5', true],
    ['ec2.InstanceClass.M5', false],
    ['aws.ec2.InstanceType.P4d_24xlarge', true],
    ['aws.ec2.InstanceType.M5_Large', false],
  ])('%s is a GPU machine: %s', (name, gpu) => {
    expect(gpuNames([name]).size > 0).toBe(gpu);
  });

  it.each(OTHER_GPU_TYPES.map((t) => [t.cloud, t.example] as const))('%s: %s is a GPU machine', (_cloud, example) => {
    expect([...gpuNames([example])]).toEqual([example]);
  });

  it('accelerators that are not GPUs are listed with what they carry, and never taken for GPUs', () => {
    for (const f of [...AWS_NOT_GPU_FAMILIES, ...GCP_NOT_GPU_FAMILIES, ...AZURE_NOT_GPU_SERIES]) expect(f.carries).not.toBe('');
    expect(gpuNames(AWS_NOT_GPU_FAMILIES.map((f) => `${f.family}.xlarge`)).size).toBe(0);
    expect(gpuNames(NOT_GPU_RESOURCES.map((r) => r.resource)).size).toBe(0);
    expect([...gpuNames(['nvidia.com/gpu', 'nvidia.com/mig-1g.10gb', 'amd.com/gpu', 'gpu.intel.com/i915'])]).toHaveLength(4);
  });

  it('two-character EC2 families on their own are not taken for GPUs (`priority: p3`), longer ones are', () => {
    expect([...gpuNames(['p3', 'g5', 'p4d', 'g6e', 'p6-b200'])]).toEqual(['p4d', 'g6e', 'p6-b200']);
  });
});

/**
 * GPU machine names of the smaller clouds' Kubernetes node pools (DigitalOcean, OVHcloud, Scaleway,
 * Exoscale), as their Terraform providers take them, beside CPU names of the same clouds that must
 * not be taken for GPUs: a pool of these is read by no parser, so the floor is all that names it.
 */
describe('GPU machine names of the smaller clouds, and their CPU names', () => {
  const gpu: readonly (readonly [cloud: string, names: readonly string[]])[] = [
    [
      'DigitalOcean',
      [
        'gpu-h100x1-80gb',
        'gpu-h100x8-640gb',
        'gpu-h100x8-640gb-contracted',
        'gpu-h200x8-1128gb',
        'gpu-l40sx1-48gb',
        'gpu-4000adax1-20gb',
        'gpu-6000adax1-48gb',
        'gpu-mi300x1-192gb',
        'gpu-mi325x8-2048gb',
      ],
    ],
    [
      'OVHcloud',
      ['t1-45', 't1-le-90', 't2-180', 't2-le-45', 'a10-90', 'a100-360', 'l4-90', 'l40s-180', 'h100-760', 'rtx5000-28', 'win-t1-45'],
    ],
    [
      'Scaleway',
      ['H100-1-80G', 'H100-2-80G', 'H100-SXM-8-80G', 'L4-1-24G', 'L4-8-24G', 'L40S-4-48G', 'GPU-3070-S', 'RENDER-S', 'l4-1-24g'],
    ],
    ['Exoscale', ['gpu2.medium', 'gpu3.large', 'gpua5000.medium', 'gpua30.huge', 'gpurtx6000.small']],
    [
      'IBM Cloud',
      ['gx3-16x80x1l4', 'gx3d-160x1792x8h100', 'gx3.16x80.l4', 'gx2.16x128.2v100', 'gx3d.160x1792.8h100', 'mg4c.32x384.2xp100'],
    ],
    ['Tencent Cloud', ['GN7.2XLARGE32', 'GN10Xp.20XLARGE320', 'GT4.4XLARGE96', 'PNV4.7XLARGE116', 'GI3X.8XLARGE64', 'GNV4v.4XLARGE40']],
    ['Huawei Cloud', ['p2s.2xlarge.8', 'p2v.2xlarge.8', 'pi2.2xlarge.4', 'p1.2xlarge.8', 'g6.xlarge.4']],
    ['Yandex Cloud', ['gpu-standard-v1', 'gpu-standard-v3', 'standard-v3-t4', 'standard-v3-t4i']],
  ];
  it.each(gpu)('%s: every GPU name is a GPU machine', (_cloud, names) => {
    expect([...gpuNames(names)]).toEqual(names);
  });

  it('their CPU names are not', () => {
    const cpu = [
      // DigitalOcean: basic, general purpose (g-, gd-), CPU- and memory-optimised sizes.
      's-2vcpu-4gb',
      'g-2vcpu-8gb',
      'gd-2vcpu-8gb',
      'c-4',
      'm-2vcpu-16gb',
      // OVHcloud
      'b2-7',
      'b3-8',
      'c3-4',
      'd2-4',
      'r3-16',
      // Scaleway
      'DEV1-M',
      'GP1-XS',
      'PRO2-S',
      'POP2-2C-8G',
      'PLAY2-NANO',
      // Exoscale
      'standard.medium',
      'cpu.extra-large',
      'memory.huge',
      // IBM Cloud (VPC profiles and Kubernetes flavors), Tencent, Huawei, Yandex
      'bx2-4x16',
      'bx2.4x16',
      'cx2.8x16',
      'mx2.16x128',
      'S5.LARGE8',
      'SA3.2XLARGE32',
      'M6.4XLARGE64',
      's6.xlarge.2',
      'c7.2xlarge.4',
      'm6.large.8',
      'standard-v3',
      'highfreq-v3',
    ];
    expect([...gpuNames(cpu)]).toEqual([]);
  });
});
