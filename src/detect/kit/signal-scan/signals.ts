import {
  AWS_GPU_FAMILY_VALUE,
  AWS_GPU_TYPE,
  AWS_GPU_TYPE_COMPUTED_SIZE,
  AZURE_GPU_SIZE,
  GCP_ACCELERATOR,
  GCP_GPU_TYPE,
  OTHER_GPU_TYPES,
  SDK_GPU_TYPE,
} from '../gpu-types/families.js';
import { GPU_PARTITION_LABEL, GPU_RESOURCE_SIGNAL } from '../gpu-resources.js';
import type { Structure } from './structure.js';

/**
 * What names GPUs in a text, whatever its format:
 * - `machine-type`: a cloud's GPU instance, machine, VM type or shape (`p4d.24xlarge`,
 *   `a3-highgpu-8g`, `Standard_NC24ads_A100_v4`, `BM.GPU.H100.8`, `gd-8xh100ib-i128`,
 *   CDK's `InstanceClass.P4D`);
 * - `machine-family`: an EC2 GPU family on its own (`p4d`, `g6e`);
 * - `accelerator`: a GPU accelerator type (`nvidia-l4`, `nvidia-tesla-t4`);
 * - `gpu-resource`: a GPU extended resource or label (`nvidia.com/gpu`, `amd.com/gpu`, MIG profiles),
 *   or a node label that picks how GPUs are partitioned or shared (`nvidia.com/mig.config`);
 * - `gpu-key`: a key whose name says GPU or accelerator (`gpu_count =`, `guest_accelerator {`).
 */
type SignalKind = 'machine-type' | 'machine-family' | 'accelerator' | 'gpu-resource' | 'gpu-key';

export interface Signal {
  offset: number;
  token: string;
  kind: SignalKind;
}

/**
 * A cheap check that lets almost every text without a GPU name through in one regular
 * expression: only a text it matches is scanned.
 */
const MAYBE =
  /gpu|accelerat|nvidia|amd\.com|standard_n[cdvg][0-9]|\b(?:ml\.)?[pg]r?[0-9][a-z0-9-]*[.\s'"\],]|\b(?:a[234]x?|g[24])-[a-z]|instance(?:class|type)\.|\bgd-[0-9]|\bgb[0-9]{3}-[0-9]|\bgx[0-9][a-z]?[-.][0-9]|\bmg[0-9]c\.[0-9]|\b(?:gn[0-9]+[a-z]*|gt[0-9]|gnv[0-9][a-z]?|gi[0-9]x?|(?:hcc)?pnv[0-9][a-z]*)\.[0-9]*x?(?:large|medium|small)|\b(?:pi[0-9]|p[0-9][a-z]?|g[0-9][a-z]?)\.[0-9]*x?large\.[0-9]|\bstandard-v[0-9]-t4|ecs\.[a-z]*gn|\bvcg-|\b(?:win-)?(?:t[12](?:-le)?|a10|a100|l4|l40s|h[12]00|rtx[0-9]{4})-[0-9]|\b(?:h[12]00|b[23]00|l40s|l4|a100)(?:-sxm)?-[0-9]+-[0-9]+g\b|\b(?:gpu-3070|render)-s\b|\b(?:[abhl][0-9]{2,3}s?|gb[0-9]{3}|mi[0-9]{3}x)[a-z0-9-]*\.[0-9]+x\b/i;

export function mayNameGpus(text: string): boolean {
  return MAYBE.test(text);
}

const GPU_KEY = /gpu|accelerator/i;
/**
 * Keys that name GPUs but never size them: their drivers and software, and how a process uses the
 * memory of the GPU it has (vLLM's `gpu-memory-utilization`).
 */
// TPU keys (`cloud.google.com/gke-tpu-accelerator`) name accelerators that are not GPUs.
const NOT_SIZING_KEY = /driver|utili[sz]ation|operator|plugin|exporter|metrics|monitor|dashboard|toolkit|runtime|cuda|image|version|tpu/i;
/**
 * Keys naming a machine image (`gpu_ami_id`, `gpuAmiName`: an image, like `image` above) or what a
 * workload asks for (`requestGPU`, `gpu_requests`: demand, like a container's `resources.requests`),
 * as a word of the key, so `dynamic_gpu` or `requested_gpus_total` are not caught by a fragment.
 */
const IMAGE_OR_DEMAND_KEY = /(?:^|[_.-])(?:ami|requests?)(?:[_.-]|$)|^(?:ami|requests?)[A-Z]|[a-z0-9](?:Ami|Requests?)(?:[A-Z0-9]|$)/;
const sizes = (key: string) => !NOT_SIZING_KEY.test(key) && !IMAGE_OR_DEMAND_KEY.test(key);

/** A key the scan takes for a GPU name (`gpu_nodes_count`, `guest_accelerator`): one that says GPU and may size them. */
export function isGpuKey(key: string): boolean {
  return GPU_KEY.test(key) && sizes(key);
}

// A GPU resource with its dots escaped, as a Helm `--set` path writes a key holding dots
// (`nodeSelector.nvidia\.com/gpu\.present`; `\\.` inside an HCL or JSON string).
const ESCAPED_GPU_RESOURCE = /\b(?:nvidia\\{1,2}\.com\/(?:gpu|mig-)|amd\\{1,2}\.com\/gpu|gpu\\{1,2}\.intel\\{1,2}\.com\/)[a-z0-9_.\\-]*/gi;

// A GPU resource as a JSON Pointer spells it (RFC 6901: `/` in a key is `~1`), in the path of a
// JSON patch (`/spec/limits/nvidia.com~1gpu`) that kustomize, Argo CD and Flux apply.
const POINTER_GPU_RESOURCE = /\b(?:nvidia\.com~1(?:gpu|mig-)|amd\.com~1gpu|gpu\.intel\.com~1)[a-z0-9_.-]*/gi;

const VALUE_PATTERNS: readonly { pattern: RegExp; kind: SignalKind; group?: number }[] = [
  { pattern: GPU_RESOURCE_SIGNAL, kind: 'gpu-resource' },
  { pattern: ESCAPED_GPU_RESOURCE, kind: 'gpu-resource' },
  { pattern: POINTER_GPU_RESOURCE, kind: 'gpu-resource' },
  { pattern: GPU_PARTITION_LABEL, kind: 'gpu-resource' },
  { pattern: AWS_GPU_TYPE, kind: 'machine-type' },
  { pattern: AWS_GPU_TYPE_COMPUTED_SIZE, kind: 'machine-type' },
  { pattern: AWS_GPU_FAMILY_VALUE, kind: 'machine-family', group: 1 },
  { pattern: GCP_GPU_TYPE, kind: 'machine-type' },
  { pattern: GCP_ACCELERATOR, kind: 'accelerator' },
  { pattern: AZURE_GPU_SIZE, kind: 'machine-type' },
  { pattern: SDK_GPU_TYPE, kind: 'machine-type' },
  ...OTHER_GPU_TYPES.map((t) => ({ pattern: t.pattern, kind: 'machine-type' as const })),
];

/** Every GPU name of the text, first to last; one per place (a key that is also a resource is one signal). */
export function findSignals(text: string, structure: Structure, keys: boolean): Signal[] {
  const found: Signal[] = [];
  for (const { pattern, kind, group } of VALUE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const token = group === undefined ? m[0] : (m[group] ?? '');
      found.push({ offset: m.index + m[0].lastIndexOf(token), token, kind });
      if (m[0] === '') pattern.lastIndex++;
    }
  }
  if (keys) {
    for (const k of structure.keys) {
      if (isGpuKey(k.key)) found.push({ offset: k.offset, token: k.key, kind: 'gpu-key' });
    }
  }
  found.sort((a, b) => a.offset - b.offset || b.token.length - a.token.length);
  const out: Signal[] = [];
  let end = -1;
  for (const s of found) {
    if (s.offset < end) continue;
    out.push(s);
    end = s.offset + s.token.length;
  }
  return out;
}
