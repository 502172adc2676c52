import { isNode } from 'yaml';
import { namesGpu } from '../kit/gpu-signal.js';
import { readManifests } from '../kit/manifests.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { mapGet, nodeLine } from '../kit/yaml-nodes.js';
import type { AccountedLines } from '../parser.js';

/**
 * Dynamic Resource Allocation (`resource.k8s.io`). Kubernetes' documentation ("Dynamic Resource
 * Allocation") says what each kind is: a `ResourceClaim`, or the `ResourceClaimTemplate` from which
 * one claim per pod is made, is a request for devices by workloads (`count`, or `allocationMode: All`
 * for every matching device of a node), so demand, as a container's GPU limit is; a `DeviceClass`
 * selects devices of drivers and may set their configuration (an NVIDIA GPU's sharing strategy, MIG
 * partitions); a `ResourceSlice` is the devices a driver publishes, the cluster's inventory. None is
 * a node pool the review can count, yet a claim's count or mode, a class's selectors or config, or a
 * slice's devices decide how many GPUs are taken or offered. So an object of these kinds that names a
 * GPU driver or class is not followed when its `spec` changes (its fingerprint is the spec as
 * written), and no change when only its metadata does.
 */

const MARKERS = /resource\.k8s\.io\//;
const DRA_API = /^resource\.k8s\.io\/v[0-9a-z]+$/;
const KINDS = new Set(['ResourceClaim', 'ResourceClaimTemplate', 'DeviceClass', 'ResourceSlice']);
/**
 * GPU DRA drivers and the device classes they install (NVIDIA's k8s-dra-driver-gpu: `gpu.nvidia.com`,
 * `mig.nvidia.com`; AMD's `gpu.amd.com`; Intel's `gpu.intel.com`), and class names that say GPU.
 */
const GPU_DEVICE = /\b(?:gpu|mig)\.nvidia\.com\b|\bgpu\.amd\.com\b|\bgpu\.intel\.com\b|gpu/i;

const WHAT: Record<string, string> = {
  ResourceClaim: 'the devices it claims (its requests: count, allocationMode, device class) are what the pods using it take',
  ResourceClaimTemplate: 'the devices each pod made with it claims (its requests: count, allocationMode, device class)',
  DeviceClass: 'the devices the class selects and the configuration it gives them (sharing, partitions)',
  ResourceSlice: 'the devices a driver offers on its nodes',
};

export const draParser = yamlParser('dra', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const accounted: AccountedLines[] = [];
  for (const m of scan.manifests) {
    if (m.embedded || !KINDS.has(m.kind ?? '') || !DRA_API.test(m.apiVersion ?? '')) continue;
    const spec = mapGet(m.root, 'spec');
    const value: unknown = isNode(spec) ? spec.toJSON() : (spec ?? null);
    const json = JSON.stringify(value);
    // What picks the devices (a class, a driver, a CEL selector), not what a request is called.
    const names = [...(m.kind === 'DeviceClass' ? [m.name ?? ''] : []), ...deviceNames(value)];
    if (!names.some((n) => GPU_DEVICE.test(n) || namesGpu(n))) continue;
    // Read whole: its GPU names are accounted for by this reading.
    accounted.push({ file: path, from: m.line, to: m.line, object: true });
    found.notFollowed.push({
      file: path,
      line: nodeLine(spec, m.ctx.lc) ?? m.line,
      reason: 'count-unknown',
      subject: `${m.kind ?? ''} ${m.name ?? '(unnamed)'}`,
      needs: `it is Dynamic Resource Allocation, which the review does not count: ${WHAT[m.kind ?? ''] ?? ''}; check the GPUs it takes or offers by hand`,
      fingerprint: JSON.stringify(['dra', m.kind, m.name, json]),
    });
  }
  return { ...found.result(text), accounted };
});

const DEVICE_KEYS = new Set(['deviceClassName', 'driver', 'expression']);

/** The values of the fields that pick devices, anywhere in a spec: classes, drivers, CEL selectors. */
function deviceNames(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 32 || value === null || typeof value !== 'object') return out;
  for (const [key, v] of Array.isArray(value) ? value.map((x, i) => [String(i), x] as const) : Object.entries(value)) {
    if (DEVICE_KEYS.has(key) && typeof v === 'string') out.push(v);
    else deviceNames(v, out, depth + 1);
  }
  return out;
}
