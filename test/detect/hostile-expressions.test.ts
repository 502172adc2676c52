import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBicepSet } from '../../src/detect/bicep/bicep-parser.js';
import { parseTerraformSet } from '../../src/detect/terraform/terraform-parser.js';
import { detectPr } from './real-fixtures.js';

/*
 * Expressions a pull request can write to hold the review: lists doubled through chains of locals,
 * strings doubled, values that share their parts (small in memory, huge to walk), nested `for`
 * over large ranges, long chains and cycles of locals, for_each over thousands of keys. Each must
 * end fast, in a count or in the file not followed with the budget named, never in a hang, a
 * crash or a count taken from half an evaluation.
 */

// Far above what a budget-bound reading takes, far below a hang: the machine running tests is shared.
const FAST_MS = 3000;

const GPU_POOL = (count: string, extra = '') => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = ${count}
  ${extra}
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;

const locals = (lines: string[]) => `locals {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n`;
const chain = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));

/** One hostile shape: the locals and the expression the pool's node count (or another attribute) reads. */
const hostile = fc.oneof(
  fc
    .record({
      depth: fc.integer({ min: 16, max: 48 }),
      fn: fc.constantFrom(
        'concat(local.l{i}, local.l{i})',
        '[local.l{i}, local.l{i}]',
        'flatten([local.l{i}, local.l{i}])',
        'merge({ a{i} = local.l{i} }, { b{i} = local.l{i} })',
      ),
    })
    .map(({ depth, fn }) => ({
      shape: `doubling ${fn} × ${depth}`,
      text:
        locals(['l0 = [1]', ...chain(depth, (i) => `l${i + 1} = ${fn.replaceAll('{i}', String(i))}`)]) +
        GPU_POOL(`length(jsonencode(local.l${depth})) > 0 ? 2 : 2`),
    })),
  fc.integer({ min: 16, max: 40 }).map((depth) => ({
    shape: `string doubling × ${depth}`,
    text:
      locals(['s0 = "xxxxxxxxxxxxxxxx"', ...chain(depth, (i) => `s${i + 1} = "\${local.s${i}}\${local.s${i}}"`)]) +
      GPU_POOL(`length(local.s${depth}) > 0 ? 2 : 2`),
  })),
  fc.record({ n: fc.integer({ min: 200, max: 1024 }), nest: fc.integer({ min: 2, max: 4 }) }).map(({ n, nest }) => {
    let body = 'a0';
    for (let k = nest - 1; k >= 0; k--) body = `[for a${k} in local.r : ${k === nest - 1 ? `a${k} + 1` : body}]`;
    return {
      shape: `${nest} nested for over range(${n})`,
      text: locals([`r = range(${n})`, `x = ${body}`]) + GPU_POOL('length(flatten(local.x)) > 0 ? 2 : 2'),
    };
  }),
  fc.integer({ min: 100, max: 4000 }).map((n) => ({
    shape: `a chain of ${n} locals`,
    text: locals([...chain(n, (i) => `c${i} = local.c${i + 1} + 0`), `c${n} = 2`]) + GPU_POOL('local.c0'),
  })),
  fc.integer({ min: 2, max: 50 }).map((n) => ({
    shape: `a cycle of ${n} locals`,
    text: locals(chain(n, (i) => `c${i} = local.c${(i + 1) % n}`)) + GPU_POOL('local.c0'),
  })),
  fc.integer({ min: 2000, max: 20000 }).map((n) => ({
    shape: `for_each over ${n} keys`,
    text: GPU_POOL(
      '2',
      `for_each = toset([for i in range(${Math.min(n, 1024)}) : "\${i}-\${jsonencode([for j in range(${Math.ceil(n / 1024)}) : j])}"])`,
    ),
  })),
  fc
    .constantFrom(
      'range(100000000)',
      'range(0, 1e300, 1)',
      'setproduct(range(1000), range(1000), range(1000))',
      'setproduct(range(200), range(200))',
    )
    .map((e) => ({
      shape: e,
      text: GPU_POOL(`length(${e}) > 0 ? 2 : 2`),
    })),
);

describe('hostile Terraform expressions', () => {
  it('end fast, in a count or with the file not read, never in a hang or a crash', () => {
    fc.assert(
      fc.property(hostile, ({ shape, text }) => {
        const started = performance.now();
        const r = parseTerraformSet([{ path: 'infra/main.tf', text }]);
        const took = performance.now() - started;
        expect(took, shape).toBeLessThan(FAST_MS);
        if (r.decls.length > 0) {
          // Read whole: the count is the one the expression gives.
          expect(
            r.decls.map((d) => d.gpus),
            shape,
          ).toEqual([2]);
          expect(
            r.diagnostics.filter((d) => d.severity === 'error'),
            shape,
          ).toEqual([]);
        } else {
          // Not read: the pool stays, count unknown, and a message says why.
          expect(
            r.unresolved?.map((u) => u.name),
            shape,
          ).toEqual(['gpu']);
          expect(r.diagnostics.length, shape).toBeGreaterThan(0);
        }
      }),
      { numRuns: 40, seed: 26_27 },
    );
  });

  it('a file over the budget is not followed in a review, naming the budget', async () => {
    const base = { 'infra/main.tf': GPU_POOL('2') };
    const doubling = locals(['l0 = [1]', ...chain(40, (i) => `l${i + 1} = concat(local.l${i}, local.l${i})`)]);
    const head = { 'infra/main.tf': doubling + GPU_POOL('length(local.l40) > 0 ? 8 : 8') };
    const started = performance.now();
    const r = await detectPr(base, head);
    expect(performance.now() - started).toBeLessThan(FAST_MS);
    expect(r.changes).toEqual([]);
    expect(r.coverage).toEqual([{ file: 'infra/main.tf', state: 'not-followed', notFollowed: expect.any(Array) as unknown }]);
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({
        file: 'infra/main.tf',
        severity: 'error',
        message: expect.stringContaining("gpu-justify's budget (a list or map of more than 20,000 elements)") as unknown,
      }),
    );
  });
});

const BICEP_POOL = (vars: string, count: string) => `${vars}
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  properties: {
    agentPoolProfiles: [
      {
        name: 'gpupool'
        count: ${count}
        vmSize: 'Standard_NC6s_v3'
        mode: 'User'
      }
    ]
  }
}
`;

describe('hostile Bicep expressions', () => {
  it('end fast, in a count or with the template not read', () => {
    const shapes = fc.oneof(
      fc
        .integer({ min: 16, max: 60 })
        .map((n) =>
          BICEP_POOL(
            [`var a0 = [1]`, ...chain(n, (i) => `var a${i + 1} = [a${i}, a${i}]`), `var s = '\${a${n}}'`].join('\n'),
            "s == 'x' ? 2 : 2",
          ),
        ),
      fc
        .integer({ min: 16, max: 40 })
        .map((n) =>
          BICEP_POOL(
            [`var s0 = 'xxxxxxxxxxxxxxxx'`, ...chain(n, (i) => `var s${i + 1} = '\${s${i}}\${s${i}}'`)].join('\n'),
            `s${n} == 'x' ? 2 : 2`,
          ),
        ),
      fc
        .integer({ min: 50, max: 3000 })
        .map((n) => BICEP_POOL([...chain(n, (i) => `var c${i} = c${i + 1} + 0`), `var c${n} = 2`].join('\n'), 'c0')),
    );
    fc.assert(
      fc.property(shapes, (text) => {
        const started = performance.now();
        const r = parseBicepSet([{ path: 'infra/main.bicep', text }]);
        expect(performance.now() - started).toBeLessThan(FAST_MS);
        if (r.decls.length > 0) expect(r.decls.map((d) => d.gpus)).toEqual([2]);
        else expect(r.diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 20, seed: 26_27 },
    );
  });
});
