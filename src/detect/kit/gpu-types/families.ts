/**
 * Which machine families of each cloud carry GPUs, as names written in infrastructure files. The
 * instance catalogs beside this file (aws.ts, gcp.ts, azure.ts) give GPUs per machine and prices
 * for the types the review counts; these lists say, for any type of the family (listed there or
 * not), "this machine has GPUs", which is what the signal scan (kit/signal-scan/) needs to notice
 * capacity in a format no parser reads. Accelerators that are not GPUs are listed apart, with
 * what they are, so a test can hold that they are not taken for GPUs.
 */

/** A family of machines with accelerators that are not GPUs, and what they carry. */
export interface NotGpuFamily {
  family: string;
  carries: string;
}

/**
 * EC2 families with GPUs (NVIDIA, and AMD in g4ad, Radeon Pro V520). Source: the EC2 API's
 * instance types (`DescribeInstanceTypes` `GpuInfo`; the `_InstanceType` enum of
 * @aws-sdk/client-ec2, which test/detect/gpu-type-lists.test.ts checks this list against), and
 * "Accelerated computing instances" in the EC2 user guide.
 */
export const AWS_GPU_FAMILIES: readonly string[] = [
  'p2',
  'p3',
  'p3dn',
  'p4d',
  'p4de',
  'p5',
  'p5e',
  'p5en',
  'p6-b200',
  'p6-b300',
  'p6e-gb200',
  'g2',
  'g3',
  'g3s',
  'g4ad',
  'g4dn',
  'g5',
  'g5g',
  'g6',
  'g6e',
  'g6f',
  'g7',
  'g7e',
  'gr6',
  'gr6f',
];

/** EC2 families with accelerators that are not GPUs (same sources). */
export const AWS_NOT_GPU_FAMILIES: readonly NotGpuFamily[] = [
  { family: 'trn1', carries: 'AWS Trainium' },
  { family: 'trn1n', carries: 'AWS Trainium' },
  { family: 'trn2', carries: 'AWS Trainium2' },
  { family: 'trn2u', carries: 'AWS Trainium2' },
  { family: 'inf1', carries: 'AWS Inferentia' },
  { family: 'inf2', carries: 'AWS Inferentia2' },
  { family: 'dl1', carries: 'Intel Gaudi (Habana)' },
  { family: 'dl2q', carries: 'Qualcomm Cloud AI 100' },
  { family: 'f1', carries: 'Xilinx FPGAs' },
  { family: 'f2', carries: 'AMD (Xilinx) FPGAs' },
  { family: 'vt1', carries: 'Xilinx video transcoding cards' },
];

/**
 * An EC2 instance type of a GPU family, listed above or newer (`p7`, `g8e`): p and g families from
 * the second generation on, and the gr (graphics, ARM) ones, as `family.size`; with SageMaker's
 * `ml.` prefix too. Sizes are `large`, `Nxlarge`, `metal` and `metal-Nxl`.
 */
export const AWS_GPU_TYPE =
  /\b(?:ml\.)?(?:p[2-9][a-z]*(?:-[a-z0-9]+)?|g[2-9][a-z]*|gr[0-9][a-z]*)\.(?:[0-9]*x?large|metal(?:-[0-9]+xl)?)\b/g;

/**
 * An EC2 GPU type whose size is put in by the code or template that writes it: the family and its
 * dot before an interpolation (`g5.${size}`, `f"p4d.{size}"`, Ruby's `g5.#{size}`), a format
 * verb (`"g5.%s"`) or a concatenation (`"g5." + size`). The family alone says GPU, whatever size.
 */
export const AWS_GPU_TYPE_COMPUTED_SIZE =
  /\b(?:ml\.)?(?:p[2-9][a-z]*(?:-[a-z0-9]+)?|g[2-9][a-z]*|gr[0-9][a-z]*)\.(?=\$\{|#\{|\{[A-Za-z_]|%s|["'`]\s*\+)/g;

/**
 * A GPU family named on its own, as Karpenter's `instance-family` values do. Two-character names
 * (`p3`, `g5`) are left out: alerting configs say `priority: p3`; a pool of such a family is still
 * seen through its instance types, GPU resources or keys.
 */
export const AWS_GPU_FAMILY_VALUE = new RegExp(
  `(?:^|[\\s'"\`\\[,:(=])(${AWS_GPU_FAMILIES.filter((f) => f.length > 2)
    .sort((a, b) => b.length - a.length)
    .join('|')})(?=$|[\\s'"\`\\],)#])`,
  'gm',
);

/**
 * Compute Engine machine families with GPUs attached by the machine type: A2 (A100), A3 (H100,
 * H200), A4 (B200), A4X (GB200), G2 (L4), G4 (RTX PRO 6000). Source: "GPU machine types" and
 * "Accelerator-optimized machine family" in the Compute Engine documentation. N1 machines take
 * GPUs as guest accelerators instead, named below.
 */
export const GCP_GPU_FAMILIES: readonly string[] = ['a2', 'a3', 'a4', 'a4x', 'g2', 'g4'];

/** Compute Engine machine types with TPUs: accelerators, not GPUs (same source, "TPU versions"). */
export const GCP_NOT_GPU_FAMILIES: readonly NotGpuFamily[] = [
  { family: 'ct3', carries: 'Cloud TPU v3' },
  { family: 'ct3p', carries: 'Cloud TPU v3' },
  { family: 'ct4p', carries: 'Cloud TPU v4' },
  { family: 'ct5l', carries: 'Cloud TPU v5e' },
  { family: 'ct5lp', carries: 'Cloud TPU v5e' },
  { family: 'ct5p', carries: 'Cloud TPU v5p' },
  { family: 'ct6e', carries: 'Cloud TPU v6e (Trillium)' },
  { family: 'tpu7x', carries: 'Cloud TPU Ironwood' },
];

/** `a3-highgpu-8g`, `g2-standard-24`, `a4x-highgpu-4g`, `a3-megagpu-8g-metal`. */
export const GCP_GPU_TYPE = /\b(?:a[234]x?|g[24])-(?:[a-z]+gpu|standard|highmem|highcpu)-[0-9]+g?(?:-[a-z]+)?\b/g;

/**
 * GPU accelerator types of Compute Engine and GKE (`guest_accelerator`, the
 * `cloud.google.com/gke-accelerator` label): `nvidia-tesla-t4`, `nvidia-l4`, `nvidia-h100-80gb`,
 * `nvidia-b200`, `nvidia-rtx-pro-6000`. Source: "GPU platforms" in the Compute Engine
 * documentation (`gcloud compute accelerator-types list`). `nvidia-k8s-…` and other NVIDIA
 * software names are not accelerators.
 */
export const GCP_ACCELERATOR =
  /\bnvidia-(?:tesla-[a-z0-9]+(?:-vws)?|(?!k8s)[a-z]{1,2}[0-9]{1,4}[a-z0-9]*(?:-[a-z0-9]+)*|rtx-[a-z0-9-]+)\b/gi;

/**
 * Azure VM series with GPUs: NC, ND, NV (NVIDIA, and AMD in NVv4 and ND MI300X) and NG (AMD
 * Radeon). Source: "GPU accelerated compute" VM sizes in the Azure documentation. NP carries FPGAs.
 */
export const AZURE_GPU_SERIES: readonly string[] = ['NC', 'ND', 'NV', 'NG'];
export const AZURE_NOT_GPU_SERIES: readonly NotGpuFamily[] = [{ family: 'NP', carries: 'Xilinx FPGAs' }];

/** `Standard_NC24ads_A100_v4`, `standard_nd96isr_h100_v5` (Azure reads sizes case-insensitively). */
export const AZURE_GPU_SIZE = /\bStandard_N[CDVG][0-9][A-Za-z0-9_]*\b/gi;

/**
 * GPU machine names of other clouds, each with where it comes from. The ones here are what real
 * infrastructure repositories write; a name of a cloud not listed is still caught through a GPU
 * resource (`nvidia.com/gpu`) or a key naming GPUs beside it.
 */
export const OTHER_GPU_TYPES: readonly { cloud: string; pattern: RegExp; example: string; source: string }[] = [
  {
    cloud: 'OCI',
    pattern: /\b(?:BM|VM)\.GPU[A-Za-z0-9.-]*\b/g,
    example: 'BM.GPU.H100.8',
    source: 'OCI Compute Shapes, GPU shapes (BM.GPU*, VM.GPU*)',
  },
  {
    cloud: 'CoreWeave',
    pattern: /\b(?:gd-[0-9]+x[a-z0-9]+(?:-[a-z0-9]+)*|gb[0-9]{3}-[0-9]+x)\b/g,
    example: 'gd-8xh100ib-i128',
    source: 'CoreWeave Kubernetes Service instance types (gd-*: GPU; cd-*: CPU)',
  },
  {
    cloud: 'Lambda',
    pattern: /\bgpu_[0-9]+x_[a-z0-9_]+\b/g,
    example: 'gpu_8x_h100_sxm5',
    source: 'Lambda Cloud API instance type names',
  },
  {
    cloud: 'Nebius',
    pattern: /\bgpu-[a-z]+[0-9]+[a-z]*-(?:sxm[0-9]?|pcie|[a-d])\b/g,
    example: 'gpu-h100-sxm',
    source: 'Nebius AI Cloud compute platforms',
  },
  {
    cloud: 'DigitalOcean',
    // The GPU may lead with digits (`gpu-4000adax1-20gb`, RTX 4000 Ada) or end in a letter
    // (`gpu-l40sx1-48gb`); a contracted size carries a suffix (`gpu-h100x8-640gb-contracted`).
    pattern: /\bgpu-[a-z0-9]*[0-9][a-z0-9]*x[0-9]+-[0-9]+gb(?:-[a-z]+)?\b/g,
    example: 'gpu-h100x8-640gb',
    source:
      'DigitalOcean GPU Droplet size slugs (gpu-h100x1-80gb, gpu-h200x8-1128gb, gpu-l40sx1-48gb, gpu-4000adax1-20gb, gpu-6000adax1-48gb, gpu-mi300x8-1536gb)',
  },
  {
    cloud: 'OVHcloud',
    // `<GPU>-<RAM GB>`: t1 (V100), t2 (V100S), their `-le` editions, a10, a100, l4, l40s, h100, rtx5000;
    // Windows images prefix `win-`. CPU flavors are b2-7, b3-8, c3-4, d2-4, r3-16: no GPU leads.
    pattern: /\b(?:win-)?(?:t[12](?:-le)?|a10|a100|l4|l40s|h100|h200|rtx[0-9]{4})-[0-9]{2,4}\b/g,
    example: 'l40s-90',
    source: 'OVHcloud Public Cloud GPU instance flavors (t1-45, t1-le-90, t2-180, a10-45, a100-180, l4-90, l40s-90, h100-380)',
  },
  {
    cloud: 'Scaleway',
    // `<GPU>[-SXM]-<GPUs>-<memory>G` and the older GPU-3070-S and RENDER-S; the API takes them in either case.
    pattern: /\b(?:(?:h100|h200|b200|b300|a100)(?:-sxm)?|l40s|l4)-[0-9]+-[0-9]+g\b|\b(?:gpu-3070|render)-s\b/gi,
    example: 'H100-SXM-2-80G',
    source: 'Scaleway GPU Instance types (H100-1-80G, H100-SXM-8-80G, L4-1-24G, L40S-8-48G, GPU-3070-S, RENDER-S)',
  },
  {
    cloud: 'Exoscale',
    // `<family>.<size>`: gpu2, gpu3, gpua5000, gpua30, gpurtx6000 …; CPU families are standard, cpu, memory, storage.
    pattern: /\bgpu(?:[0-9]|a[0-9]+|rtx[0-9]+)\.(?:tiny|small|medium|large|extra-large|huge|mega|titan|jumbo|colossus)\b/g,
    example: 'gpua5000.medium',
    source: 'Exoscale Compute GPU instance types (gpu2.medium, gpu3.large, gpua5000.medium)',
  },
  {
    cloud: 'Linode',
    pattern: /\bg[0-9]-gpu-[a-z0-9-]+\b/g,
    example: 'g2-gpu-rtx4000a1-s',
    source: 'Akamai (Linode) GPU plan type ids',
  },
  {
    cloud: 'IBM Cloud',
    // VPC profiles `gx3-16x80x1l4`, `gx3d-160x1792x8h100`; the Kubernetes Service writes its worker
    // flavors with dots (`gx3.16x80.l4`, `gx2.16x128.2v100`), and classic GPU flavors are `mg4c.…`.
    pattern:
      /\bgx[0-9][a-z]?-[0-9]+x[0-9]+x[0-9]+[a-z0-9]+\b|\bgx[0-9][a-z]?\.[0-9]+x[0-9]+\.[0-9]*[a-z][a-z0-9]*\b|\bmg[0-9]c\.[0-9]+x[0-9]+(?:\.[a-z0-9]+)*\b/g,
    example: 'gx3-16x80x1l4',
    source:
      'IBM Cloud VPC GPU profiles (gx2, gx3, gx3d) and IBM Cloud Kubernetes Service GPU worker flavors (gx2.16x128.2v100, gx3.16x80.l4, classic mg4c.32x384.2xp100)',
  },
  {
    cloud: 'Tencent Cloud',
    // `<family>.<size><memory>`: GN (NVIDIA compute), GT, GNV and PNV (vGPU and newer), GI (inference).
    pattern: /\b(?:GN[0-9]+[A-Za-z]*|GT[0-9]|GNV[0-9][a-z]?|GI[0-9]X?|(?:HCC)?PNV[0-9][a-z]*)\.[0-9]*X?(?:LARGE|MEDIUM|SMALL)[0-9]*\b/g,
    example: 'GN7.2XLARGE32',
    source: 'Tencent Cloud CVM GPU instance types (GN7.2XLARGE32, GT4.4XLARGE96, PNV4.7XLARGE116)',
  },
  {
    cloud: 'Huawei Cloud',
    // `<family>.<size>.<memory ratio>`: p (compute: p1, p2s, p2v), pi (inference: pi2 is a T4), g (graphics).
    // The trailing ratio tells them from EC2 names; CPU flavors lead with s, c, m, e, x, kc.
    pattern: /\b(?:pi[0-9]|p[0-9][a-z]?|g[0-9][a-z]?)\.[0-9]*x?large\.[0-9]+\b/g,
    example: 'pi2.2xlarge.4',
    source: 'Huawei Cloud ECS GPU-accelerated flavors (p2s.2xlarge.8, p2v.2xlarge.8, pi2.2xlarge.4, g6.xlarge.4)',
  },
  {
    cloud: 'Yandex Cloud',
    pattern: /\bgpu-standard-v[0-9][a-z]?\b|\bstandard-v[0-9]-t4i?\b/g,
    example: 'gpu-standard-v3',
    source: 'Yandex Cloud Compute GPU platforms (gpu-standard-v1, gpu-standard-v2, gpu-standard-v3, standard-v3-t4)',
  },
  {
    cloud: 'Alibaba Cloud',
    pattern: /\becs\.(?:ebm|sgn|vgn)?gn[a-z0-9]*-?[a-z0-9]*\.[a-z0-9]+\b/g,
    example: 'ecs.gn7i-c8g1.2xlarge',
    source: 'Alibaba Cloud ECS GPU-accelerated instance families (gn*, ebmgn*, sgn*, vgn*)',
  },
  {
    cloud: 'Vultr',
    pattern: /\bvcg-[a-z0-9]+-[a-z0-9-]+\b/g,
    example: 'vcg-a100-1c-6g-4vram',
    source: 'Vultr Cloud GPU plan ids',
  },
  {
    cloud: 'Civo',
    // GPU sizes lead with `an.` or `g4g.`; `g4s.`, `g4c.`, `g4m.`, `g4p.` and `g3.` sizes are CPU.
    pattern: /\ban\.g[0-9]+\.[a-z0-9]+(?:\.[a-z0-9]+)*\.x[0-9]+\b|\bg4g\.(?:[0-9]+\.)?(?:kube\.)?(?:x?small|medium|x*large)\b/g,
    example: 'an.g1.l40s.kube.x1',
    source:
      'Civo GPU sizes (`civo sizes ls`: an.g1.l40s.kube.x1 … x8, an.g1.h100.kube.x8, an.g1.h200sxm.kube.x8, g4g.kube.small, g4g.40.kube.small; civo/llm-boilerplate takes `g4g.` and `an.` as the GPU prefixes)',
  },
  {
    cloud: 'Crusoe',
    // `<GPU>[-<memory>gb][-<form>…].<GPUs>x`; CPU types are `c1a.16x`, `s1a.80x`: a GPU model leads.
    pattern: /\b(?:[abhl][0-9]{2,3}s?|gb[0-9]{3}|mi[0-9]{3}x|rtx[a-z0-9]*)(?:-[0-9]+gb)?(?:-[a-z0-9]+)*\.[0-9]+x\b/g,
    example: 'h100-80gb-sxm-ib.8x',
    source: 'Crusoe Cloud instance types (terraform-provider-crusoe examples: a100-80gb.1x, a100-80gb-sxm-ib.8x; CPU: c1a, s1a)',
  },
];

/**
 * SDK names of EC2 GPU types in infrastructure code: AWS CDK's `InstanceClass.P4D`,
 * `InstanceClass.G5`, `InstanceClass.GRAPHICS5` and `PARALLEL3`; Pulumi's
 * `InstanceType.P4d_24xlarge`, `InstanceType.G5_XLarge`. Source: aws-cdk-lib `aws_ec2.InstanceClass`
 * and @pulumi/aws `ec2.InstanceType`.
 */
export const SDK_GPU_TYPE =
  /\bInstanceClass\.(?:P[2-9][A-Z0-9_]*|G[2-9][A-Z0-9_]*|GR[0-9][A-Z0-9_]*|GRAPHICS[0-9A-Z_]*|PARALLEL[0-9A-Z_]*)\b|\bInstanceType\.(?:P[2-9][A-Za-z0-9]*|G[2-9][A-Za-z0-9]*|Gr[0-9][A-Za-z0-9]*)_[A-Za-z0-9_]+\b/g;
