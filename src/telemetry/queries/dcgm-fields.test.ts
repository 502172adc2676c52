import { describe, expect, it } from 'vitest';
import { DCGM_PROF } from './dcgm-fields.js';
import { dramActive, fbUsed, gpuUtil, smActivity, tensorActive } from './dcgm.js';
import { replicaPeaks } from './dcgm-replicas.js';
import { migActivity, migPods } from './mig.js';
import type { NamedQuery } from './named-query.js';

const workload = { kind: 'workload' as const, name: 'chat', selector: { namespace: 'chat' } };
const pool = { kind: 'pool' as const, name: 'a100', poolLabel: 'pool' };
const o = { windowMinutes: 60 };

/** Whether `promql` selects `metric` itself (not a longer name that starts with it). */
const reads = (q: NamedQuery, metric: string) => new RegExp(`\\b${metric}\\{`).test(q.promql);

describe('every DCGM profiling query reads both names of each field', () => {
  const cases: [string, NamedQuery[], (readonly string[])[]][] = [
    ['tensorActive', [tensorActive(workload), tensorActive(pool)], [DCGM_PROF.tensor]],
    ['dramActive', [dramActive(workload), dramActive(pool)], [DCGM_PROF.dram]],
    ['smActivity', [smActivity(workload), smActivity(pool)], [DCGM_PROF.sm, DCGM_PROF.gr]],
    ['migActivity', [migActivity(workload), migActivity(pool)], [DCGM_PROF.gr, DCGM_PROF.sm, DCGM_PROF.tensor, DCGM_PROF.dram]],
    ['migPods', [migPods(pool)], [DCGM_PROF.gr]],
    ['replicaPeaks', [replicaPeaks(workload, o)], [DCGM_PROF.sm, DCGM_PROF.gr]],
  ];
  for (const [name, queries, fields] of cases) {
    it(`${name} reads ${fields.map((f) => f.join(' and ')).join('; ')}`, () => {
      for (const q of queries) for (const names of fields) for (const n of names) expect(reads(q, n), `${q.id}: ${n}`).toBe(true);
    });
  }

  it('pairs legacy and renamed names of the same field ids, legacy first', () => {
    expect(DCGM_PROF).toEqual({
      gr: ['DCGM_FI_PROF_GR_ENGINE_ACTIVE', 'DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO'],
      sm: ['DCGM_FI_PROF_SM_ACTIVE', 'DCGM_FI_PROF_SM_UTIL_RATIO'],
      tensor: ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', 'DCGM_FI_PROF_TENSOR_UTIL_RATIO'],
      dram: ['DCGM_FI_PROF_DRAM_ACTIVE', 'DCGM_FI_PROF_DRAM_UTIL_RATIO'],
    });
  });

  it('joins the two names with `or`, so a GPU exported under both is one series', () => {
    expect(tensorActive(pool).promql).toMatch(/DCGM_FI_PROF_PIPE_TENSOR_ACTIVE\{.*\bor\b.*DCGM_FI_PROF_TENSOR_UTIL_RATIO\{/);
  });

  it('names the counters CSV as the step that enables a profiling field', () => {
    expect(tensorActive(workload).how).toContain('dcp-metrics-included.csv');
    expect(dramActive(pool).how).toContain('DCGM_FI_PROF_DRAM_ACTIVE');
  });

  it('reads GPU_UTIL (percent) and FB_USED (MiB) under their one name: no renamed series of a known unit exists', () => {
    for (const q of [gpuUtil(workload), gpuUtil(pool), fbUsed(workload)]) expect(q.promql).not.toMatch(/UTIL_RATIO|_BYTES/);
    expect(reads(gpuUtil(pool), 'DCGM_FI_DEV_GPU_UTIL')).toBe(true);
  });
});
