import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';
import type { Tree } from './listing-tree.js';

/**
 * The floor, tried on generated files rather than one fixture per case: GPU names placed at random
 * positions of random formats no parser reads must end not followed; GPU names placed only where
 * they say nothing of capacity (comments, labels, images, a workload's requests, scheduling) must
 * leave a change of the file "no GPU change".
 */

type Value = string | number | boolean | Value[] | { [key: string]: Value };

/** Formats the floor reads with no parser for them, each writing a tree of values its own way. */
interface Format {
  ext: string;
  /** A value signal can be written; key signals count only where keys are settings, not code. */
  keys: boolean;
  render(tree: { [key: string]: Value }, comment: string | null): string;
}

const quote = (s: string) => JSON.stringify(s);
const bare = (k: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k);

function yaml(v: Value, indent: string): string {
  if (Array.isArray(v)) return v.map((x) => `\n${indent}- ${yaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  if (typeof v === 'object') {
    return Object.entries(v)
      .map(
        ([k, x]) =>
          `\n${indent}${/[:#\s]/.test(k) ? quote(k) : k}:${typeof x === 'object' ? yaml(x, `${indent}  `) : ` ${yaml(x, indent)}`}`,
      )
      .join('');
  }
  return typeof v === 'string' ? quote(v) : String(v);
}

/** YAML's flow style, `{key: value, list: [a, b]}`: the same mappings and lists as the block style. */
function flow(v: Value): string {
  if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${/[:#\s,[\]{}]/.test(k) ? quote(k) : k}: ${flow(x)}`)
      .join(', ')}}`;
  return typeof v === 'string' ? quote(v) : String(v);
}

function braces(v: Value, indent: string, sep: string, key: (k: string) => string): string {
  if (Array.isArray(v)) return `[${v.map((x) => `\n${indent}  ${braces(x, `${indent}  `, sep, key)},`).join('')}\n${indent}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `\n${indent}  ${key(k)}${sep}${braces(x, `${indent}  `, sep, key)}${sep === ': ' ? ',' : ''}`)
      .join('')}\n${indent}}`;
  }
  return typeof v === 'string' ? quote(v) : String(v);
}

const FORMATS: Format[] = [
  { ext: 'yaml', keys: true, render: (t, c) => `${c === null ? '' : `# ${c}\n`}${yaml(t, '').slice(1)}\n` },
  { ext: 'flow.yaml', keys: true, render: (t, c) => `${c === null ? '' : `# ${c}\n`}${flow(t)}\n` },
  // Block style at the top, flow style below: `spec: {limits: {nvidia.com/gpu: 1}}`.
  {
    ext: 'mixed.yaml',
    keys: true,
    render: (t, c) =>
      `${c === null ? '' : `# ${c}\n`}${Object.entries(t)
        .map(([k, x]) => `${/[:#\s,[\]{}]/.test(k) ? quote(k) : k}: ${flow(x)}\n`)
        .join('')}`,
  },
  { ext: 'json', keys: true, render: (t) => `${JSON.stringify(t, null, 2)}\n` },
  {
    ext: 'tf',
    keys: true,
    // A resource of a provider no parser reads (a local nothing uses would change nothing).
    render: (t, c) =>
      `${c === null ? '' : `# ${c}\n`}resource "example_fleet" "main" {\n  settings = ${braces(t, '  ', ' = ', (k) => (bare(k) ? k : quote(k)))}\n}\n`,
  },
  {
    ext: 'jsonnet',
    keys: true,
    render: (t, c) => `${c === null ? '' : `// ${c}\n`}${braces(t, '', ': ', (k) => (bare(k) ? k : quote(k)))}\n`,
  },
  // Programs that declare infrastructure through an SDK: their keys are settings.
  {
    ext: 'ts',
    keys: true,
    render: (t, c) =>
      `import * as pulumi from '@pulumi/pulumi';\n${c === null ? '' : `// ${c}\n`}export const stack = ${braces(t, '', ': ', (k) => (bare(k) ? k : quote(k)))};\n`,
  },
  {
    ext: 'py',
    keys: true,
    render: (t, c) =>
      `import aws_cdk as cdk\n${c === null ? '' : `# ${c}\n`}CLUSTER = ${braces(t, '', ': ', quote).replace(/\btrue\b/g, 'True')}\n`,
  },
  {
    ext: 'go',
    keys: true,
    render: (t, c) =>
      `package infra\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\n${c === null ? '' : `// ${c}\n`}var cluster = map[string]any${braces(t, '', ': ', quote)}\n`,
  },
  // Programs of no infrastructure SDK (a serving app, a training script): only names of machines,
  // accelerators and GPU resources count, not the GPU words of their identifiers.
  {
    ext: 'app.ts',
    keys: false,
    render: (t, c) => `${c === null ? '' : `// ${c}\n`}export const settings = ${braces(t, '', ': ', quote)};\n`,
  },
  {
    ext: 'app.py',
    keys: false,
    render: (t, c) => `${c === null ? '' : `# ${c}\n`}SETTINGS = ${braces(t, '', ': ', quote).replace(/\btrue\b/g, 'True')}\n`,
  },
];

const INSTANCE_TYPES = [
  'p4d.24xlarge',
  'g5.12xlarge',
  'p5.48xlarge',
  'a3-highgpu-8g',
  'g2-standard-24',
  'Standard_NC24ads_A100_v4',
  'BM.GPU.H100.8',
  'gd-8xh100ib-i128',
];
const ACCELERATORS = ['nvidia-l4', 'nvidia-tesla-t4', 'nvidia-h100-80gb'];
const RESOURCES = ['nvidia.com/gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/xe'];
const GPU_KEYS = ['gpu_count', 'gpuCount', 'acceleratorType', 'num_gpus', 'maxGpus'];
// Keys that place a value nowhere in particular: no label, image, request or scheduling field.
const NEUTRAL = [
  'spec',
  'config',
  'pool',
  'settings',
  'capacity',
  'nodes',
  'groups',
  'quota',
  'compute',
  'fleet',
  'workers',
  'size',
  'shape',
];

const neutralKey = fc.constantFrom(...NEUTRAL);
const valueSignal = fc.constantFrom(...INSTANCE_TYPES, ...ACCELERATORS, ...RESOURCES);

/** A GPU name at a random place of a random tree: as a value, a key holding a count, or a list item. */
const placed = (keys: boolean) =>
  fc
    .record({
      path: fc.array(neutralKey, { minLength: 1, maxLength: 4 }),
      how: keys ? fc.constantFrom('value', 'resource-key', 'gpu-key', 'item') : fc.constantFrom('value', 'item'),
      signal: valueSignal,
      gpuKey: fc.constantFrom(...GPU_KEYS),
      count: fc.integer({ min: 1, max: 512 }),
      filler: fc.dictionary(
        neutralKey,
        fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom('m5.large', 'n2-standard-8', 'us-east-1')),
      ),
    })
    .map(({ path, how, signal, gpuKey, count, filler }) => {
      const leafKey = path[path.length - 1] ?? 'spec';
      let leaf: { [key: string]: Value };
      if (how === 'value') leaf = { [leafKey]: signal };
      else if (how === 'item') leaf = { [leafKey]: ['m5.large', signal] };
      else if (how === 'resource-key') leaf = { [RESOURCES.includes(signal) ? signal : 'nvidia.com/gpu']: count };
      else leaf = { [gpuKey]: count };
      let tree: { [key: string]: Value } = { ...filler, ...leaf };
      for (const k of path.slice(0, -1).reverse()) tree = { [k]: tree };
      return { ...filler, apiVersion: 'infra.example.com/v1', kind: 'Fleet', ...tree };
    });

async function coverageOf(path: string, before: string | null, after: string) {
  const base: Tree = before === null ? {} : { [path]: before };
  const result = await detectChanges(listingPr(base, { [path]: after }));
  return { changes: result.changes, file: result.coverage.find((c) => c.file === path) };
}

describe('the floor on generated variants', () => {
  it.each(FORMATS.map((f) => [f.ext, f] as const))(
    'a GPU name placed anywhere in a %s file no parser reads is not followed',
    async (_ext, format) => {
      await fc.assert(
        fc.asyncProperty(
          placed(format.keys),
          fc.boolean(),
          fc.constantFrom('infra', 'deploy/gpu', 'stacks/prod'),
          async (tree, added, dir) => {
            const path = `${dir}/cluster.${format.ext}`;
            const after = format.render(tree, null);
            // Added, or edited from a version without it: the change adds the name either way.
            const before = added ? null : format.render({ note: 'cpu only' }, null);
            const { changes, file } = await coverageOf(path, before, after);
            expect(changes).toEqual([]);
            expect(file?.state).toBe('not-followed');
            expect(file?.notFollowed?.map((n) => n.reason)).toContain('unaccounted-signal');
          },
        ),
        { numRuns: 25 },
      );
    },
  );

  it.each(FORMATS.map((f) => [f.ext, f] as const))(
    'a GPU name that only the base side of a %s file holds is not followed either',
    async (_ext, format) => {
      await fc.assert(
        fc.asyncProperty(placed(format.keys), async (tree) => {
          const path = `infra/cluster.${format.ext}`;
          const { file } = await coverageOf(path, format.render(tree, null), format.render({ note: 'moved elsewhere' }, null));
          expect(file?.state).toBe('not-followed');
          expect(file?.notFollowed?.[0]).toMatchObject({ reason: 'unaccounted-signal', line: null });
        }),
        { numRuns: 10 },
      );
    },
  );

  /** A Kubernetes workload whose GPU names sit only where they say nothing of capacity. */
  const workload = fc
    .record({
      kind: fc.constantFrom('Deployment', 'StatefulSet', 'Job', 'RayCluster', 'InferenceService', 'SomeController'),
      resource: fc.constantFrom(...RESOURCES),
      gpus: fc.integer({ min: 1, max: 8 }),
      type: fc.constantFrom(...INSTANCE_TYPES),
      accelerator: fc.constantFrom(...ACCELERATORS),
      label: fc.boolean(),
      selector: fc.boolean(),
      toleration: fc.boolean(),
      affinity: fc.boolean(),
      requests: fc.boolean(),
      annotation: fc.boolean(),
      replicas: fc.integer({ min: 1, max: 20 }),
    })
    .map((w) => {
      const container: { [key: string]: Value } = {
        name: 'server',
        image: `registry.example.com/serve:${w.accelerator}`,
        resources: { limits: { [w.resource]: w.gpus }, ...(w.requests ? { requests: { [w.resource]: w.gpus, cpu: '4' } } : {}) },
      };
      const podSpec: { [key: string]: Value } = { containers: [container] };
      if (w.selector)
        podSpec.nodeSelector = { 'node.kubernetes.io/instance-type': w.type, 'cloud.google.com/gke-accelerator': w.accelerator };
      if (w.toleration) podSpec.tolerations = [{ key: w.resource, operator: 'Exists', effect: 'NoSchedule' }];
      if (w.affinity) {
        podSpec.affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [w.type] }] }],
            },
          },
        };
      }
      const metadata: { [key: string]: Value } = {
        name: `gpu-${w.accelerator}`,
        labels: { 'gpu-type': w.type, accelerator: w.accelerator },
      };
      if (w.annotation) metadata.annotations = { 'example.com/gpu-model': w.accelerator };
      return {
        apiVersion: w.kind === 'RayCluster' ? 'ray.io/v1' : 'apps/v1',
        kind: w.kind,
        metadata,
        spec: { replicas: w.replicas, template: { metadata: { labels: { 'gpu-workload': 'true' } }, spec: podSpec } },
      };
    });

  it.each(FORMATS.filter((f) => f.ext !== 'py' && f.ext !== 'go').map((f) => [f.ext, f] as const))(
    'GPU names in a %s workload only as labels, images, requests, scheduling and comments: no false alarm',
    async (_ext, format) => {
      await fc.assert(
        fc.asyncProperty(workload, fc.integer({ min: 1, max: 20 }), fc.constantFrom(...INSTANCE_TYPES), async (w, replicas, commented) => {
          const path = `apps/server.${format.ext}`;
          const before = format.render(w, `runs on ${commented}`);
          const after = format.render({ ...w, spec: { ...(w.spec as object), replicas } }, `runs on ${commented} (${replicas} replicas)`);
          const { changes, file } = await coverageOf(path, before, after);
          expect(changes).toEqual([]);
          expect(file?.state).not.toBe('not-followed');
        }),
        { numRuns: 25 },
      );
    },
  );

  it.each(FORMATS.filter((f) => !f.keys).map((f) => [f.ext, f] as const))(
    'GPU words in the identifiers of a %s program of no infrastructure SDK: no false alarm',
    async (_ext, format) => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...GPU_KEYS, 'gpu_id', 'gpus', 'accelerator', 'use_gpu'), fc.integer({ min: 0, max: 64 }), {
            minKeys: 1,
          }),
          fc.integer({ min: 1, max: 64 }),
          async (settings, changed) => {
            const path = `serve/model.${format.ext}`;
            const { file } = await coverageOf(path, format.render(settings, null), format.render({ ...settings, batch: changed }, null));
            expect(file?.state).not.toBe('not-followed');
          },
        ),
        { numRuns: 20 },
      );
    },
  );

  // A machine type in `args`/`env`/`command` is the exception: a provisioning script takes it
  // (test/detect/workload-program-inputs.test.ts), so it is tried here in the config only.
  it('GPU names anywhere in a workload kind (args, env, a Ray serve config) are its demand: no false alarm', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Deployment', 'Job', 'RayService', 'RayJob', 'PyTorchJob', 'InferenceService', 'NIMCache'),
        fc.constantFrom(...ACCELERATORS, ...RESOURCES),
        fc.constantFrom(...GPU_KEYS),
        fc.integer({ min: 1, max: 8 }),
        async (kind, signal, key, n) => {
          const doc = (count: number) =>
            `apiVersion: example.io/v1\nkind: ${kind}\nmetadata:\n  name: serve\nspec:\n  config:\n    ${key}: ${count}\n    target: ${signal}\n  args: ["--tensor-parallel-size=${count}", "--device=${signal}"]\n`;
          const { file } = await coverageOf('apps/serve.yaml', doc(n), doc(n + 1));
          expect(file?.state).not.toBe('not-followed');
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a machine type in a workload kind's config is its demand: no false alarm", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Deployment', 'Job', 'RayService', 'RayJob', 'PyTorchJob', 'InferenceService', 'NIMCache'),
        fc.constantFrom(...INSTANCE_TYPES),
        fc.integer({ min: 1, max: 8 }),
        async (kind, signal, n) => {
          const doc = (count: number) =>
            `apiVersion: example.io/v1\nkind: ${kind}\nmetadata:\n  name: serve\nspec:\n  config:\n    replicas: ${count}\n    target: ${signal}\n`;
          const { file } = await coverageOf('apps/serve.yaml', doc(n), doc(n + 1));
          expect(file?.state).not.toBe('not-followed');
        },
      ),
      { numRuns: 20 },
    );
  });

  it('a capacity controller deployed as a workload keeps its GPU names: the cluster autoscaler sizes pools', async () => {
    const doc = (max: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cluster-autoscaler\nspec:\n  template:\n    spec:\n      containers:\n        - name: cluster-autoscaler\n          command: ["./cluster-autoscaler", "--nodes=0:${max}:gpu-p4d.24xlarge-asg"]\n`;
    const { file } = await coverageOf('kube-system/cluster-autoscaler.yaml', doc(4), doc(16));
    expect(file?.state).toBe('not-followed');
  });

  it('documentation naming GPUs anywhere is never applied: not capacity', async () => {
    await fc.assert(
      fc.asyncProperty(
        placed(true),
        fc.constantFrom('README.md', 'docs/gpus.rst', 'notes/capacity.txt', 'docs/pools.adoc'),
        async (tree, path) => {
          const { file } = await coverageOf(path, '# Pools\n', `# Pools\n\n${yaml(tree, '')}\n`);
          expect(file?.state).not.toBe('not-followed');
        },
      ),
      { numRuns: 20 },
    );
  });
});
