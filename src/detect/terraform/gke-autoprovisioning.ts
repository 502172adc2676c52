import type { CapacityDecl } from '../../domain/index.js';
import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { acceleratorModel } from '../kit/gpu-types/index.js';
import type { Scope } from './expr-eval.js';
import { isGkeModuleSource } from './gke-module.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, single, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';

const KIND = 'gke-autoprovisioning' as const;

/**
 * GKE node auto-provisioning's GPU limits: with `cluster_autoscaling` enabled, GKE creates node
 * pools by itself (for ComputeClasses and pods that ask for accelerators) up to a cluster-wide
 * `maximum` per accelerator type. Read from google_container_cluster's `resource_limits` blocks
 * and from the GKE module's `cluster_autoscaling.gpu_resources`; one declaration per
 * accelerator type, named by the type (the `cloud.google.com/gke-accelerator` label of the
 * nodes it makes).
 */
export function readGkeAutoprovisioning(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(asRecord(body.resource).google_container_cluster))) {
    const block = loc.path(loc.file(), [['resource', 'google_container_cluster', label]]);
    if (!block || !Array.isArray(blocks)) continue;
    const raw = single(blocks);
    if (raw.cluster_autoscaling === undefined) continue;
    const settings = single(raw.cluster_autoscaling);
    const span = loc.child(block, 'cluster_autoscaling') ?? block;
    const limits = Array.isArray(settings.resource_limits)
      ? settings.resource_limits
      : settings.resource_limits === undefined
        ? []
        : [settings.resource_limits];
    const spans = loc.children(span, 'resource_limits');
    readLimits(file, loc, scope, `google_container_cluster.${label}`, settings.enabled, span, limits, spans, out);
  }
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = single(blocks);
    if (raw.cluster_autoscaling === undefined || !isGkeModuleSource(raw.source)) continue;
    const block = loc.path(loc.file(), [['module', label]]);
    if (!block) continue;
    const ctx = new PoolContext(file, loc, block, scope, `module.${label}`);
    let settings: Record<string, unknown>;
    try {
      settings = asRecord(ctx.value(raw.cluster_autoscaling, 'cluster_autoscaling', ['cluster_autoscaling']));
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      // Passed through a variable it is usually CPU and memory settings: said only when it names GPUs.
      if (/gpu|nvidia/i.test(JSON.stringify(raw.cluster_autoscaling))) out.diagnostics.push(...ctx.diagnostics);
      continue;
    }
    const span = loc.child(block, 'cluster_autoscaling') ?? block;
    const list = Array.isArray(settings.gpu_resources) ? settings.gpu_resources : [];
    const listSpan = loc.child(span, 'gpu_resources');
    const spans = list.map((_, i) => (listSpan ? loc.element(listSpan, i) : null) ?? listSpan ?? span);
    readLimits(file, loc, scope, `module.${label}`, settings.enabled, span, list, spans, out);
  }
  return out;
}

function readLimits(
  file: string,
  loc: Locator,
  scope: Scope,
  address: string,
  enabledRaw: unknown,
  span: Span,
  limits: readonly unknown[],
  spans: readonly (Span | null | undefined)[],
  out: PoolOutcome,
): void {
  const ctx = new PoolContext(file, loc, span, scope, address);
  try {
    // Without `enabled`, GKE does not auto-provision: the limits bound nothing.
    if (enabledRaw === undefined || ctx.value(enabledRaw, 'cluster_autoscaling.enabled', ['enabled']) !== true) return;
  } catch (err) {
    if (!(err instanceof Unknown)) throw err;
    out.diagnostics.push(...ctx.diagnostics);
    return;
  }
  limits.forEach((limitRaw, i) => {
    const limit = asRecord(limitRaw);
    const at = spans[i] ?? span;
    const item = new PoolContext(file, loc, at, scope, `${address} node auto-provisioning`);
    try {
      const type = item.value(limit.resource_type, 'resource_type', ['resource_type']);
      if (typeof type !== 'string' || !/^nvidia-/.test(type)) return;
      const max = item.count(limit.maximum, `${type} maximum`, ['maximum']);
      if (max === null) {
        item.warn(item.line(['resource_type']), `${type} has no maximum: cannot tell the GPU count`);
        out.unresolved.push({ file, line: item.line(['resource_type']), kind: KIND, name: type });
        return;
      }
      const line = item.line(['maximum']);
      const decl: CapacityDecl = {
        file,
        line,
        kind: KIND,
        name: type,
        gpuModel: acceleratorModel(type),
        gpus: max,
        parts: [{ label: `${address}: node auto-provisioning ${type} maximum`, resource: PRIMARY_GPU_RESOURCE, gpus: max, line }],
      };
      out.decls.push(decl);
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      out.unresolved.push({
        file,
        line: at.line,
        kind: KIND,
        name: typeof limit.resource_type === 'string' ? limit.resource_type : `${address}.resource_limits[${i}]`,
      });
    } finally {
      out.diagnostics.push(...item.diagnostics);
    }
  });
}
