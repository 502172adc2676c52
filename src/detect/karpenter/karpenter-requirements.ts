import { normaliseGpuModel } from '../kit/gpu-resources.js';
import { awsFamilyModel, lookupInstanceType, looksLikeGpuFamily, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { GPU_INSTANCE_TYPES } from '../kit/gpu-types/index.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, nodeSource, scalarString, scalarText, seqItems } from '../kit/yaml-nodes.js';

/** What a pool's requirements say about GPUs. */
export interface GpuRequirements {
  families: string[];
  types: string[];
  gpuNames: string[];
  /** Some requirement admits GPU instances (a GPU family, type, name, count or category). */
  allowsGpu: boolean;
}

// Karpenter on EC2 and EKS Auto Mode use their own label prefixes for the same requirements.
const PREFIXES = ['karpenter.k8s.aws/', 'eks.amazonaws.com/'];
const keyIs = (key: string, suffix: string) => PREFIXES.some((p) => key === p + suffix);

// Karpenter on Azure (AKS node auto-provisioning) names the same dimensions after the VM SKU
// (Azure/karpenter-provider-azure, pkg/apis/v1beta1/labels.go: sku-name, sku-family, sku-series,
// sku-gpu-name, sku-gpu-manufacturer, sku-gpu-count).
const AZURE = 'karpenter.azure.com/';
// The N families and series (NC, ND, NV, NCads_H100_v5 …) are Azure's GPU VMs.
const AZURE_GPU_FAMILY = /^n/i;

/** A requirement on a GPU dimension (count, memory, maker) that some GPU instance meets. */
function admitsGpu(operator: string, values: readonly string[]): boolean {
  if (operator === 'Exists') return true;
  if (operator === 'Gt') return values.length > 0;
  if (operator === 'In') return values.some((v) => v !== '0' && v !== '');
  return false;
}

function readAzure(dimension: string, operator: string, values: readonly string[], out: GpuRequirements): void {
  const isIn = operator === 'In';
  if (dimension === 'sku-name' && isIn) out.types.push(...values);
  else if (dimension === 'sku-gpu-name' && isIn) out.gpuNames.push(...values);
  else if (dimension === 'sku-gpu-name' || dimension === 'sku-gpu-count' || dimension === 'sku-gpu-manufacturer') {
    if (admitsGpu(operator, values)) out.allowsGpu = true;
  } else if ((dimension === 'sku-family' || dimension === 'sku-series') && isIn && values.some((v) => AZURE_GPU_FAMILY.test(v)))
    out.allowsGpu = true;
}

/**
 * `text` is the original (unmasked) source: a templated value such as `"${instance_type}"` is
 * masked in the parse, and is kept as the expression it was, never as the mask.
 */
export function readRequirements(requirements: unknown, text?: string): GpuRequirements {
  const out: GpuRequirements = { families: [], types: [], gpuNames: [], allowsGpu: false };
  for (const req of seqItems(requirements)) {
    const key = scalarString(mapGet(req, 'key')) ?? '';
    const operator = scalarString(mapGet(req, 'operator')) ?? 'In';
    const values = seqItems(mapGet(req, 'values'))
      .map((v) => valueText(v, text))
      .filter((v) => v !== '');
    const isIn = operator === 'In';
    if (keyIs(key, 'instance-family') && isIn) out.families.push(...values);
    else if ((key === 'node.kubernetes.io/instance-type' || keyIs(key, 'instance-type')) && isIn) out.types.push(...values);
    else if (keyIs(key, 'instance-gpu-name') && isIn) out.gpuNames.push(...values);
    else if (keyIs(key, 'instance-gpu-name') && operator === 'Exists') out.allowsGpu = true;
    else if (keyIs(key, 'instance-gpu-count')) {
      if (operator === 'Exists' || (operator === 'Gt' && values.length > 0) || (isIn && values.some((v) => Number(v) > 0)))
        out.allowsGpu = true;
    } else if (keyIs(key, 'instance-category') && isIn && values.some((v) => v === 'g' || v === 'p')) out.allowsGpu = true;
    else if (keyIs(key, 'instance-gpu-manufacturer') || keyIs(key, 'instance-gpu-memory')) {
      if (admitsGpu(operator, values)) out.allowsGpu = true;
    } else if (key.startsWith(AZURE)) readAzure(key.slice(AZURE.length), operator, values, out);
  }
  if (out.families.some(looksLikeGpuFamily) || out.types.some(looksLikeGpuType) || out.gpuNames.length > 0) out.allowsGpu = true;
  return out;
}

/** The one GPU model the requirements allow, or null when none or several. */
export function requirementsModel(r: GpuRequirements): string | null {
  const models = new Set<string>();
  if (r.gpuNames.length > 0) for (const n of r.gpuNames) models.add(normaliseGpuModel(n));
  else if (r.types.length > 0) for (const t of r.types) models.add(lookupInstanceType(t)?.gpuModel ?? '?');
  else for (const f of r.families) models.add(awsFamilyModel(f) ?? '?');
  if (models.size !== 1 || models.has('?')) return null;
  const [only] = models;
  return only ?? null;
}

/** GPUs per node when the requirements pin every allowed type to the same count; else null. */
export function pinnedGpusPerNode(r: GpuRequirements): number | null {
  if (r.types.length === 0) return null;
  const counts = new Set(r.types.map((t) => lookupInstanceType(t)?.gpus ?? -1));
  if (counts.size !== 1 || counts.has(-1)) return null;
  const [only] = counts;
  return only ?? null;
}

/** The range of GPUs per node over the catalog rows the families or types allow. */
export function gpusPerNodeRange(r: GpuRequirements): [number, number] | null {
  const rows = GPU_INSTANCE_TYPES.filter(
    (t) => t.cloud === 'aws' && (r.types.length > 0 ? r.types.includes(t.type) : r.families.includes(t.type.split('.')[0] ?? '')),
  );
  if (rows.length === 0) return null;
  const counts = rows.map((t) => t.gpus);
  return [Math.min(...counts), Math.max(...counts)];
}

function valueText(node: unknown, text: string | undefined): string {
  const expr = text === undefined ? null : findTemplateExpression(nodeSource(node, text));
  return expr ?? scalarText(node);
}

/** The first requirement value that is a template expression, unknown until rendered. */
export function templatedValue(r: GpuRequirements): string | null {
  return [...r.types, ...r.families, ...r.gpuNames].find((v) => findTemplateExpression(v) !== null) ?? null;
}
