import type { LineCounter } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import type { CapacityDecl, CapacityPart, Diagnostic, Severity } from '../../domain/index.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { isDraGpuResource, isGpuResource, isWholeGpuResource, PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import type { UnresolvedDecl } from '../parser.js';
import { parseQuantity } from '../kit/quantity.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, nodeLine, nodeSource, scalarString, scalarValue, seqItems } from '../kit/yaml-nodes.js';
import { nodeLines, pairLines, pairOf, pairsExcept } from '../kit/node-lines.js';
import type { NodeLines } from '../kit/node-lines.js';

export const KUEUE_KIND = 'kueue-cluster-queue' as const;
const COHORT_KIND = 'kueue-cohort' as const;
const KNOWN_API_VERSIONS = new Set(['kueue.x-k8s.io/v1beta1', 'kueue.x-k8s.io/v1beta2']);
// Cohorts were served as v1alpha1 before v1beta1 (Kueue 0.9 to 0.12).
const KNOWN_COHORT_VERSIONS = new Set(['kueue.x-k8s.io/v1alpha1', ...KNOWN_API_VERSIONS]);

/** The Kueue objects whose `spec.resourceGroups` hold quota: a ClusterQueue's own, a Cohort's shared by its tree. */
type QuotaObject = 'ClusterQueue' | 'Cohort';

export interface QueueContext {
  file: string;
  /** The text the document was parsed from (node ranges index into it). */
  text: string;
  lc: LineCounter;
  /** GPU model per ResourceFlavor name, from flavors in the same file. */
  flavorModels: ReadonlyMap<string, string>;
  /** MultiKueue AdmissionChecks in the same file, by name. */
  multiKueueChecks?: ReadonlySet<string>;
  /** What the document is; ClusterQueue when not given. */
  object?: QuotaObject;
}

export interface QueueResult {
  decl?: CapacityDecl;
  unresolved?: UnresolvedDecl;
  diagnostics: Diagnostic[];
}

/**
 * The lines of a ClusterQueue this reader reads: all of it but `spec.resourceGroups`, and there
 * each group's `coveredResources`, each flavor's `name` and each entry of its `resources` (every
 * one is read: counted, ruled out by its name, or reported). A GPU resource written in another
 * shape (a group without `flavors`, say) is left out, so the floor sees it and it is not followed.
 */
export function queueLines(doc: YamlDoc, lc: LineCounter): NodeLines[] {
  const root = doc.contents;
  const spec = mapGet(root, 'spec');
  const out = [...pairsExcept(root, ['spec'], lc), ...pairsExcept(spec, ['resourceGroups'], lc)];
  const specPair = pairOf(root, 'spec');
  const key = specPair ? nodeLines(specPair.key, lc) : null;
  if (key) out.push(key);
  const groups = pairOf(spec, 'resourceGroups');
  const groupsKey = groups ? nodeLines(groups.key, lc) : null;
  if (groupsKey) out.push(groupsKey);
  const add = (lines: NodeLines | null) => {
    if (lines) out.push(lines);
  };
  for (const group of seqItems(mapGet(spec, 'resourceGroups'))) {
    const covered = pairOf(group, 'coveredResources');
    if (covered) add(pairLines(covered, lc));
    const flavors = pairOf(group, 'flavors');
    if (flavors) add(nodeLines(flavors.key, lc));
    for (const flavor of seqItems(mapGet(group, 'flavors'))) {
      const name = pairOf(flavor, 'name');
      if (name) add(pairLines(name, lc));
      const resources = pairOf(flavor, 'resources');
      if (resources) add(nodeLines(resources.key, lc));
      for (const res of seqItems(mapGet(flavor, 'resources'))) add(nodeLines(res, lc));
    }
  }
  return out;
}

/** One GPU resource entry of a flavor: its count, or why it has none. */
interface GpuEntry {
  resource: string | null;
  flavor: string;
  line: number;
  gpus: number | null;
  borrowingLimit?: number;
  lendingLimit?: number;
}

/**
 * Reads one `kind: ClusterQueue` or `kind: Cohort` document; no decl when it holds no GPU resource.
 * A Cohort's quota is written as a ClusterQueue's and adds to what the queues of its tree may
 * borrow: GPUs as real as a queue's own (Kueue, "Cohort", Configuring Quotas).
 */
export function readClusterQueue(doc: YamlDoc, ctx: QueueContext): QueueResult {
  const object = ctx.object ?? 'ClusterQueue';
  const diagnostics: Diagnostic[] = [];
  const root = doc.contents;
  const docLine = nodeLine(root, ctx.lc) ?? 1;
  const note = (line: number | null, severity: Severity, message: string) =>
    diagnostics.push(diagnostic(ctx.file, line ?? docLine, severity, message));

  const apiVersion = scalarString(mapGet(root, 'apiVersion'));
  if (apiVersion === null || !apiVersion.startsWith('kueue.x-k8s.io/')) return { diagnostics };
  const name = scalarString(mapGet(mapGet(root, 'metadata'), 'name'));
  const label = name ?? '(unnamed)';

  const entries = readGpuEntries(mapGet(root, 'spec'), ctx, `${object} ${label}`, note);
  if (entries.length === 0) return { diagnostics };

  if (!(object === 'Cohort' ? KNOWN_COHORT_VERSIONS : KNOWN_API_VERSIONS).has(apiVersion)) {
    note(docLine, 'warning', `${object} ${label}: apiVersion ${apiVersion} is not one Kueue serves; read with the v1beta2 layout`);
  }
  if (name === null) {
    const raw = nodeSource(mapGet(mapGet(root, 'metadata'), 'name'), ctx.text).trim();
    note(
      docLine,
      'warning',
      raw
        ? `${object} name is not a plain string (${raw}); its GPU quota is not compared`
        : `${object} has no metadata.name; its GPU quota is not compared`,
    );
    return { diagnostics };
  }

  // Whole GPUs (nvidia.com/gpu, amd.com/gpu, Intel's) are the GPU count when present; per-model
  // or MIG names only stand in when none is (for example one resource per GPU model, as in
  // Kueue's credits example).
  const whole = (e: GpuEntry) => e.resource !== null && isWholeGpuResource(e.resource);
  const hasWhole = entries.some(whole);
  const counted = hasWhole ? entries.filter(whole) : entries;
  const firstLine = counted[0]?.line ?? docLine;

  const kind = object === 'Cohort' ? COHORT_KIND : KUEUE_KIND;
  if (counted.some((e) => e.gpus === null)) {
    return { unresolved: { file: ctx.file, line: firstLine, kind, name }, diagnostics };
  }

  const parts: CapacityPart[] = [];
  for (const e of entries) {
    if (e.gpus !== null && e.resource !== null) {
      parts.push({
        label: e.flavor,
        resource: e.resource,
        gpus: e.gpus,
        line: e.line,
        ...(e.borrowingLimit === undefined ? {} : { borrowingLimit: e.borrowingLimit }),
        ...(e.lendingLimit === undefined ? {} : { lendingLimit: e.lendingLimit }),
      });
    }
  }
  const gpus = counted.reduce((sum, e) => sum + (e.gpus ?? 0), 0);
  if (!hasWhole) {
    // Every GPU resource of another vendor is a whole-GPU one, so what is left is NVIDIA's.
    const names = [...new Set(counted.map((e) => e.resource))].join(', ');
    note(firstLine, 'info', `${object} ${name} has no ${PRIMARY_GPU_RESOURCE} quota; counted ${names} as GPUs`);
  }

  const decl: CapacityDecl = {
    file: ctx.file,
    line: firstLine,
    kind,
    name,
    gpuModel: modelOf(counted, ctx.flavorModels),
    gpus,
    parts,
  };
  const dispatch = admissionChecks(mapGet(root, 'spec')).find((c) => ctx.multiKueueChecks?.has(c));
  if (dispatch !== undefined) {
    note(
      firstLine,
      'info',
      `ClusterQueue ${name} dispatches its workloads to worker clusters through the MultiKueue admission check ${dispatch}: ` +
        `its quota caps what is sent there, while the workers' own ClusterQueues hold the GPUs; raising it adds no hardware by itself`,
    );
  }
  // A Cohort's parent is no cohort it joins as a queue does; the queues' cohort links stay theirs.
  const cohort = object === 'ClusterQueue' ? readCohort(root, apiVersion) : null;
  if (cohort !== null) decl.cohort = cohort;
  const borrowing = sumIfAll(counted.map((e) => e.borrowingLimit));
  if (borrowing !== undefined) decl.borrowingLimit = borrowing;
  const lending = sumIfAll(counted.map((e) => e.lendingLimit));
  if (lending !== undefined) decl.lendingLimit = lending;
  return { decl, diagnostics };
}

type Note = (line: number | null, severity: Severity, message: string) => void;

function readGpuEntries(spec: unknown, ctx: QueueContext, queue: string, note: Note): GpuEntry[] {
  const entries: GpuEntry[] = [];
  for (const group of seqItems(mapGet(spec, 'resourceGroups'))) {
    for (const flavorNode of seqItems(mapGet(group, 'flavors'))) {
      const flavorName = mapGet(flavorNode, 'name');
      const flavor = scalarString(flavorName) ?? (nodeSource(flavorName, ctx.text).trim() || '(unnamed flavor)');
      for (const res of seqItems(mapGet(flavorNode, 'resources'))) {
        const entry = readResource(res, flavor, ctx, queue, note);
        if (entry) entries.push(entry);
      }
    }
  }
  return entries;
}

function readResource(res: unknown, flavor: string, ctx: QueueContext, queue: string, note: Note): GpuEntry | null {
  const nameNode = mapGet(res, 'name');
  const resource = scalarString(nameNode);
  const quotaNode = mapGet(res, 'nominalQuota');
  const line = nodeLine(quotaNode, ctx.lc) ?? nodeLine(res, ctx.lc);

  if (resource === null) {
    const expr = findTemplateExpression(nodeSource(nameNode, ctx.text));
    if (expr === null) return null;
    // A templated resource name could be the GPU: its quota is unknown, not zero.
    note(
      line,
      'warning',
      `${queue}, flavor ${flavor}: the resource name is the template expression ${expr}; cannot tell whether its quota is GPUs until the template is rendered`,
    );
    return { resource: null, flavor, line: line ?? 1, gpus: null };
  }
  if (!isGpuResource(resource)) {
    if (isDraGpuResource(resource)) {
      const quota = nodeSource(quotaNode, ctx.text).trim();
      note(
        line,
        'warning',
        `${queue}, flavor ${flavor}: ${resource} carries no domain, so pods do not request it as a resource (they request e.g. nvidia.com/gpu): it is a DRA device class or device capacity that Kueue maps, or a name no workload uses; its quota${quota ? ` ${quota}` : ''} is not counted as GPUs`,
      );
    }
    // `example.com/gpu`: a DRA device-class mapping or a vendor's plugin this tool does not know. Its
    // quota may well be whole GPUs; counted as none, a change to it would pass unseen.
    if (/^[a-z0-9.-]+\/gpu$/i.test(resource)) {
      note(
        line,
        'warning',
        `${queue}, flavor ${flavor}: ${resource} is not a GPU resource gpu-justify knows (nvidia.com/gpu, amd.com/gpu, gpu.intel.com/…), so whether its quota is GPUs, and how many, is not followed`,
      );
      return { resource, flavor, line: line ?? 1, gpus: null };
    }
    return null;
  }

  const where = `${queue}, flavor ${flavor}, ${resource}`;
  const raw = scalarValue(quotaNode);
  if (quotaNode === undefined || quotaNode === null || (raw === null && nodeSource(quotaNode, ctx.text).trim() === '')) {
    note(line, 'warning', `${where}: no nominalQuota; the GPU quota is unknown`);
    return { resource, flavor, line: line ?? 1, gpus: null };
  }
  const value = parseQuantity(raw);
  if (value === null) {
    const source = nodeSource(quotaNode, ctx.text).trim();
    const expr = findTemplateExpression(source);
    note(
      line,
      'warning',
      expr !== null
        ? `${where}: nominalQuota is the template expression ${expr}; the GPU quota cannot be read until the template is rendered`
        : `${where}: nominalQuota ${source} is not a Kubernetes quantity; the GPU quota is unknown`,
    );
    return { resource, flavor, line: line ?? 1, gpus: null };
  }
  if (value < 0) {
    note(line, 'warning', `${where}: nominalQuota ${String(raw)} is negative; the GPU quota is unknown`);
    return { resource, flavor, line: line ?? 1, gpus: null };
  }
  if (!Number.isInteger(value)) {
    note(line, 'warning', `${where}: nominalQuota ${String(raw)} is ${value} GPUs, not a whole number; counted as written`);
  }
  const entry: GpuEntry = { resource, flavor, line: line ?? 1, gpus: value };
  for (const field of ['borrowingLimit', 'lendingLimit'] as const) {
    const limit = readLimit(res, field, where, ctx, note);
    if (limit !== undefined) entry[field] = limit;
  }
  return entry;
}

/**
 * A borrowing or lending limit: absent means none. One that cannot be read is reported and
 * treated as absent, so it never narrows what the analysis thinks can be borrowed.
 */
function readLimit(
  res: unknown,
  field: 'borrowingLimit' | 'lendingLimit',
  where: string,
  ctx: QueueContext,
  note: Note,
): number | undefined {
  const node = mapGet(res, field);
  if (node === undefined || node === null) return undefined;
  const value = parseQuantity(scalarValue(node));
  if (value !== null && value >= 0) return value;
  const source = nodeSource(node, ctx.text).trim();
  const expr = findTemplateExpression(source);
  note(
    nodeLine(node, ctx.lc),
    'warning',
    expr !== null
      ? `${where}: ${field} is the template expression ${expr}; it cannot be read until the template is rendered`
      : `${where}: ${field} ${source} is not a non-negative Kubernetes quantity; ignored`,
  );
  return undefined;
}

function sumIfAll(values: (number | undefined)[]): number | undefined {
  return values.length > 0 && values.every((v) => v !== undefined) ? values.reduce((a, v) => a + v, 0) : undefined;
}

function readCohort(root: unknown, apiVersion: string): string | null {
  const spec = mapGet(root, 'spec');
  const v1beta1 = scalarString(mapGet(spec, 'cohort'));
  const v1beta2 = scalarString(mapGet(spec, 'cohortName'));
  // Prefer the field of the declared version; accept the other one rather than lose it.
  return apiVersion.endsWith('/v1beta1') ? (v1beta1 ?? v1beta2) : (v1beta2 ?? v1beta1);
}

/** The model when every counted flavor names the same one; null when unknown or mixed. */
function modelOf(entries: GpuEntry[], models: ReadonlyMap<string, string>): string | null {
  return modelOfFlavors(
    entries.map((e) => e.flavor),
    models,
  );
}

/** A queue's GPU model from its counted parts (whole GPUs when any), for flavors found elsewhere. */
export function queueModel(parts: readonly CapacityPart[], models: ReadonlyMap<string, string>): string | null {
  const whole = parts.filter((p) => isWholeGpuResource(p.resource));
  return modelOfFlavors(
    (whole.length > 0 ? whole : parts).map((p) => p.label),
    models,
  );
}

function modelOfFlavors(flavors: readonly string[], models: ReadonlyMap<string, string>): string | null {
  if (flavors.length === 0) return null;
  const found = new Set(flavors.map((f) => models.get(f) ?? null));
  if (found.size !== 1) return null;
  const [only] = found;
  return only ?? null;
}

/** The admission checks a ClusterQueue names: `admissionChecks`, or `admissionChecksStrategy.admissionChecks[].name`. */
function admissionChecks(spec: unknown): string[] {
  const plain = seqItems(mapGet(spec, 'admissionChecks')).map((n) => scalarString(n));
  const strategy = seqItems(mapGet(mapGet(spec, 'admissionChecksStrategy'), 'admissionChecks')).map((n) => scalarString(mapGet(n, 'name')));
  return [...plain, ...strategy].filter((n): n is string => n !== null);
}
