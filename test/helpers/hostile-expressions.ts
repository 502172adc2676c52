import fc from 'fast-check';

/*
 * Expressions a pull request can write to hold the review, as generators: lists doubled through
 * chains of locals, strings doubled, values that share their parts (small in memory, huge to
 * walk), nested `for` over large ranges, long chains and cycles of locals, for_each over thousands
 * of keys. The detection tests assert each ends within its evaluation budget; `npm run bench --
 * hostile-expressions` times them.
 */

export const GPU_POOL = (count: string, extra = '') => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  location   = "us-central1-a"
  node_count = ${count}
  ${extra}
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}
`;

export const locals = (lines: string[]) => `locals {\n${lines.map((l) => `  ${l}`).join('\n')}\n}\n`;
export const chain = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));

/** One hostile shape: the locals and the expression the pool's node count (or another attribute) reads. */
export const hostileTerraform = fc.oneof(
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

/** A Bicep template whose pool count reads `count` after `vars`. */
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

/** Hostile Bicep variables: doubled arrays and strings, and long chains. */
export const hostileBicep = fc.oneof(
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
