import { describe, expect, it } from 'vitest';
import { parseMigProfile, profileOfResource } from '../../src/domain/index.js';
import { migActivity, migPods, migRequests } from '../../src/telemetry/queries/mig.js';
import { capacityQueries, queueMigUsage, workloadQueries } from '../../src/telemetry/queries/index.js';
import { profileOfKueueResource } from '../../src/domain/index.js';
import { batch } from '../factories.js';

describe('MIG profiles as whole-GPU equivalents', () => {
  it.each([
    // A100/H100-class GPUs have 7 compute slices: N of them is N/7.
    ['1g.10gb', undefined, 1, 7],
    ['1g.5gb', 'NVIDIA A100-SXM4-40GB', 1, 7],
    ['3g.40gb', undefined, 3, 7],
    ['7g.80gb', 'NVIDIA H100 80GB HBM3', 7, 7],
    ['1g.20gb', undefined, 1, 7],
    ['1g.10gb+me', undefined, 1, 7],
    // A compute instance inside a GPU instance holds its own compute slices only.
    ['1c.3g.40gb', undefined, 1, 7],
    // A30: 4 slices, told by its 6 GB per slice when no model is named, by the model otherwise.
    ['1g.6gb', undefined, 1, 4],
    ['4g.24gb', undefined, 4, 4],
    ['2g.12gb', 'NVIDIA A30', 2, 4],
  ] as const)('%s (%s) is %i/%i of a GPU', (profile, model, slices, perGpu) => {
    const p = parseMigProfile(profile, model);
    expect(p).toMatchObject({ slices, slicesPerGpu: perGpu, fromModel: model !== undefined });
    expect(p!.fraction).toBe(slices / perGpu);
  });

  it('refuses names that are not profiles', () => {
    expect(parseMigProfile('')).toBeNull();
    expect(parseMigProfile('full')).toBeNull();
    expect(parseMigProfile('0g.10gb')).toBeNull();
  });

  it("reads kube-state-metrics' sanitised resource names", () => {
    expect(profileOfResource('nvidia_com_mig_1g_10gb')).toBe('1g.10gb');
    expect(profileOfResource('nvidia_com_mig_3g_40gb')).toBe('3g.40gb');
    expect(profileOfResource('nvidia_com_mig_1c_3g_40gb')).toBe('1c.3g.40gb');
    expect(profileOfResource('nvidia_com_mig_1g_10gb_me')).toBe('1g.10gb+me');
    expect(profileOfResource('nvidia_com_gpu')).toBeNull();
    expect(parseMigProfile(profileOfResource('nvidia_com_mig_2g_20gb')!)!.fraction).toBe(2 / 7);
    // Kueue keeps the Kubernetes names.
    expect(profileOfKueueResource('nvidia.com/mig-3g.40gb')).toBe('3g.40gb');
    expect(profileOfKueueResource('nvidia.com/gpu')).toBeNull();
  });
});

describe('MIG queries', () => {
  const pool = { kind: 'pool' as const, name: 'a100', poolLabel: 'karpenter.sh/nodepool' };
  const workload = { kind: 'workload' as const, name: 'w', selector: { namespace: 'ns', app: 'x' } };

  it('keeps instances and whole GPUs apart, and a GPU with instances out of the whole GPUs', () => {
    const q = migActivity(pool).promql;
    expect(q).toContain('DCGM_FI_PROF_GR_ENGINE_ACTIVE{GPU_I_PROFILE!=""}');
    expect(q).toContain('DCGM_FI_DEV_GPU_UTIL{GPU_I_PROFILE=""}');
    expect(q).toContain('unless on (node, gpu)');
    expect(q).toContain('count by (GPU_I_PROFILE, modelName)');
    // The workload's selector is matched on the instance series too, as namespace and as exported_namespace.
    const w = migActivity(workload).promql;
    expect(w).toContain('DCGM_FI_PROF_GR_ENGINE_ACTIVE{app="x",namespace="ns",GPU_I_PROFILE!=""}');
    expect(w).toContain('exported_namespace="ns"');
  });

  it('counts mixed-strategy resources by name and single-strategy slices by the profile DCGM reports on their node', () => {
    const q = migRequests(pool).promql;
    expect(q).toContain('kube_pod_container_resource_requests{resource=~"nvidia_com_mig_.+"}');
    expect(q).toContain('kube_node_status_allocatable{resource=~"nvidia_com_mig_.+"}');
    expect(q).toContain('group_left (GPU_I_PROFILE, modelName)');
    // Only the selector keys kube-state-metrics carries.
    expect(migRequests(workload).promql).toContain('kube_pod_container_resource_requests{resource=~"nvidia_com_mig_.+",namespace="ns"}');
    expect(migRequests(workload).promql).not.toContain('app=');
  });

  it('is planned after the whole-GPU queries: DCGM and kube-state-metrics for pools and workloads, Kueue for queues', () => {
    const o = { windowMinutes: 60 };
    expect(
      capacityQueries(pool, o)
        .map((q) => q.id)
        .slice(-3),
    ).toEqual([migActivity(pool).id, migRequests(pool).id, migPods(pool).id]);
    expect(
      capacityQueries({ kind: 'queue', name: 'q' }, o)
        .map((q) => q.id)
        .filter((i) => i.includes('mig')),
    ).toEqual(['kueue.mig-usage:queue:q']);
    expect(queueMigUsage({ kind: 'queue', name: 'q' }).promql).toContain('resource=~"nvidia\\\\.com/mig-.+"');
    const ids = workloadQueries(batch({ name: 'w', selector: { namespace: 'ns' } }), o).map((q) => q.id);
    expect(ids.slice(-2)).toEqual(['dcgm.mig-activity:workload:w', 'ksm.mig-requests:workload:w']);
  });
});
