import { describe, expect, it } from 'vitest';
import { catalog, queueFile, review } from '../test/report/scenarios.js';

/**
 * The catalog names GPUs (`gpusPerJob`) as demand, in a file the review reads whole: a pull request
 * that edits it is judged on that demand, never "not followed" for it. Only a catalog and nothing
 * else: a capacity object carried in the catalog's file, or a catalog at another path, stays not
 * followed.
 */

const QUEUE = 'clusters/queues.yaml';
const CATALOG = 'gpu-workloads.yaml';

/** A small deterministic generator, so each variant is the same on every run. */
function generator(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

const variants = Array.from({ length: 6 }, (_, i) => {
  const pick = generator(2026_12_05 + i);
  return { name: `job-${pick(1000)}`, before: 1 + pick(8), after: 1 + pick(64), runs: 1 + pick(6) };
});

const volcanoQueue = (gpus: number) =>
  `apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: extra\nspec:\n  weight: 1\n  capability:\n    nvidia.com/gpu: ${gpus}\n`;

describe('a pull request that edits the workload catalog', () => {
  it.each(variants)('is read, not "not followed", when it sets $name to $after GPUs a run', async (v) => {
    const result = await review(
      { [QUEUE]: queueFile(8), [CATALOG]: catalog(v.name, v.before, '1h', v.runs) },
      { [QUEUE]: queueFile(8 + v.after), [CATALOG]: catalog(v.name, v.after, '1h', v.runs) },
    );
    expect(result.coverage?.find((c) => c.file === CATALOG)).toEqual({ file: CATALOG, state: 'read', objects: 0 });
    expect(result.verdict).not.toBe('insufficient-evidence');
  });

  it.each(variants)('that only edits the catalog ($name) is no GPU change', async (v) => {
    const result = await review(
      { [QUEUE]: queueFile(8), [CATALOG]: catalog(v.name, v.before) },
      { [QUEUE]: queueFile(8), [CATALOG]: catalog(v.name, v.after) },
    );
    expect(result.verdict).toBe('no-gpu-change');
  });

  it.each([
    ['a second YAML document', (c: string, gpus: number) => `${c}---\n${volcanoQueue(gpus)}`],
    ['a key beside workloads', (c: string, gpus: number) => `${c}capability:\n  nvidia.com/gpu: ${gpus}\n`],
  ])('carrying capacity in %s stays not followed', async (_label, carry) => {
    for (const v of variants) {
      const result = await review(
        { [QUEUE]: queueFile(8), [CATALOG]: catalog(v.name, v.before) },
        { [QUEUE]: queueFile(8), [CATALOG]: carry(catalog(v.name, v.before), v.after) },
      );
      expect(result.coverage?.find((c) => c.file === CATALOG)?.state).toBe('not-followed');
      expect(result.verdict).toBe('insufficient-evidence');
    }
  });

  it('shaped like a catalog at a path the policy does not name stays not followed', async () => {
    const v = variants[0]!;
    const result = await review(
      { [QUEUE]: queueFile(8), 'other/workloads.yaml': catalog(v.name, v.before) },
      { [QUEUE]: queueFile(8), 'other/workloads.yaml': catalog(v.name, v.after) },
    );
    expect(result.coverage?.find((c) => c.file === 'other/workloads.yaml')?.state).toBe('not-followed');
  });

  it('at the path the policy names is read there', async () => {
    const v = variants[1]!;
    const result = await review(
      { [QUEUE]: queueFile(8), 'other/workloads.yaml': catalog(v.name, v.before) },
      { [QUEUE]: queueFile(8), 'other/workloads.yaml': catalog(v.name, v.after) },
      { catalog: 'other/workloads.yaml' },
    );
    expect(result.coverage?.find((c) => c.file === 'other/workloads.yaml')?.state).toBe('read');
    expect(result.verdict).toBe('no-gpu-change');
  });
});
