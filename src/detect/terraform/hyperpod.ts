import { PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { lookupInstanceType } from '../kit/gpu-types/index.js';
import type { Scope } from './expr-eval.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';
import { PoolContext, single, Unknown } from './pool-context.js';
import type { PoolOutcome } from './pool-context.js';

const KIND = 'sagemaker-hyperpod-group' as const;

/**
 * SageMaker HyperPod clusters (`awscc_sagemaker_cluster`): each of `instance_groups` runs
 * `instance_count` instances of its `instance_type` (`ml.p5.48xlarge`, the EC2 type with an
 * `ml.` prefix). One declaration per GPU instance group, named by `instance_group_name`.
 */
export function readHyperPodClusters(file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const out: PoolOutcome = { decls: [], unresolved: [], diagnostics: [] };
  for (const [label, blocks] of Object.entries(asRecord(asRecord(body.resource).awscc_sagemaker_cluster))) {
    const block = loc.path(loc.file(), [['resource', 'awscc_sagemaker_cluster', label]]);
    if (!block || !Array.isArray(blocks)) continue;
    const raw = single(blocks);
    if (raw.instance_groups === undefined) continue;
    const address = `awscc_sagemaker_cluster.${label}`;
    const ctx = new PoolContext(file, loc, block, scope, address);
    let groups: unknown;
    try {
      groups = ctx.value(raw.instance_groups, 'instance_groups', ['instance_groups']);
    } catch (err) {
      if (!(err instanceof Unknown)) throw err;
      out.diagnostics.push(...ctx.diagnostics);
      out.unresolved.push({ file, line: ctx.line(['instance_groups']), kind: KIND, name: `${address}.instance_groups` });
      continue;
    }
    const list = loc.child(block, 'instance_groups');
    const literal = Array.isArray(raw.instance_groups);
    (Array.isArray(groups) ? groups : []).forEach((g, i) => {
      const group = asRecord(g);
      const span = (literal && list ? loc.element(list, i) : null) ?? list ?? block;
      const item = new PoolContext(file, loc, span, scope, `${address}.instance_groups[${i}]`);
      const type = typeof group.instance_type === 'string' ? group.instance_type : null;
      const row = type === null ? null : lookupInstanceType(type);
      if (row === null) return;
      const name = typeof group.instance_group_name === 'string' ? group.instance_group_name : `${label}[${i}]`;
      const count =
        typeof group.instance_count === 'number' && Number.isInteger(group.instance_count) && group.instance_count >= 0
          ? group.instance_count
          : null;
      const line = item.line(['instance_count']);
      if (count === null) {
        item.warn(line, `instance_count is ${JSON.stringify(group.instance_count ?? null)}, not a whole number: cannot tell the GPU count`);
        out.diagnostics.push(...item.diagnostics);
        out.unresolved.push({ file, line, kind: KIND, name });
        return;
      }
      const gpus = count * row.gpus;
      out.decls.push({
        file,
        line,
        kind: KIND,
        name,
        gpuModel: row.gpuModel,
        gpus,
        gpuStep: row.gpus,
        parts: [{ label: `${name}: ${count} × ${type}`, resource: PRIMARY_GPU_RESOURCE, gpus, line }],
      });
    });
  }
  return out;
}
