import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

/**
 * Hostile text for the parsers and loaders: real files from the shared corpus mutated at random,
 * structured documents with absurd values, and the classic attacks (alias bombs, deep nesting,
 * `__proto__` keys). Everything is a plain string, so a worker can regenerate it from a seed.
 * The structured documents are in `structured-inputs.ts`.
 */

export interface Seed {
  /** Corpus-relative path, e.g. `kueue/odh-workshop-team1-cq.yaml`. */
  path: string;
  text: string;
}

/** The shared corpus sits beside the clone, as the detect tests expect it. */
const CORPUS_ROOT = fileURLToPath(new URL('../../../test/corpus', import.meta.url));

export function corpusSeeds(root = CORPUS_ROOT): Seed[] {
  const out: Seed[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // The licence texts of the corpus's sources are not corpus files.
      if (entry.name === 'LICENSES') continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'SOURCES.md') out.push({ path: path.relative(root, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Values a quantity field should never be trusted to hold. */
export const HOSTILE_QUANTITIES = [
  'NaN',
  '.nan',
  '.NaN',
  '-1',
  '-0',
  '-8',
  '1e309',
  '-1e309',
  '.inf',
  '-.inf',
  '1e-400',
  '0.5',
  '1.5',
  '0',
  '9999999999999999999999999',
  '9007199254740993',
  '0x7fffffff',
  '0o777',
  '1_000',
  '"12"',
  '12Gi',
  '8k',
  '1E3',
  '~',
  'null',
  '[]',
  '{}',
  '[1, 2]',
  '!!binary aGVsbG8=',
  '"${var.gpus}"',
  '"{{ .Values.gpus }}"',
  '*anchor',
  '&a 4',
  'true',
  '"-3"',
  '"NaN"',
  '""',
  '1e21',
  '4.000000000000001',
  '"__proto__"',
];

const PROTO_LINES = [
  '__proto__: {polluted: true}',
  '__proto__:\n  polluted: true',
  'constructor: {prototype: {polluted: true}}',
  '"__proto__": {"polluted": true}',
  'prototype: {polluted: true}',
  '<<: {__proto__: {polluted: true}}',
];

/** A document expanding to about 10^9 nodes if aliases were followed naively. */
function billionLaughs(depth = 9): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= depth; i++) {
    const refs = Array.from({ length: 10 }, () => `*a${i - 1}`).join(',');
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  return `kind: ClusterQueue\n${lines.join('\n')}\nspec:\n  resourceGroups: *a${depth}\n`;
}

function deepYaml(depth: number, flow: boolean): string {
  if (flow) return `kind: ClusterQueue\nspec: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  let text = 'kind: ClusterQueue\nspec:\n';
  for (let i = 1; i <= depth; i++) text += `${' '.repeat(i)}k${i}:\n`;
  return text;
}

function deepHcl(depth: number): string {
  return `resource "google_container_node_pool" "p" {\n${'node_config {\n'.repeat(depth)}${'}\n'.repeat(depth)}}\n`;
}

/** About `bytes` of text that is each format's worst honest case: many valid GPU objects. */
function bigFile(kind: 'yaml' | 'hcl' | 'catalog' | 'comment', bytes: number): string {
  const unit: Record<typeof kind, (i: number) => string> = {
    yaml: (i) =>
      `---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: q${i}\nspec:\n  resourceGroups:\n    - coveredResources: ["nvidia.com/gpu"]\n      flavors:\n        - name: a100\n          resources:\n            - name: nvidia.com/gpu\n              nominalQuota: ${i % 64}\n`,
    hcl: (i) =>
      `resource "google_container_node_pool" "p${i}" {\n  name = "p${i}"\n  node_count = ${i % 9}\n  node_config {\n    machine_type = "a2-highgpu-1g"\n    guest_accelerator {\n      type  = "nvidia-tesla-a100"\n      count = 1\n    }\n  }\n}\n`,
    catalog: (i) =>
      `  - name: job-${i}\n    type: batch\n    queue: research\n    gpusPerJob: 2\n    runtime: 2h\n    jobsPerDay: 4\n    window: {earliestStart: "00:00", deadline: "06:00"}\n    interruptible: false\n`,
    comment: (i) => `/gpu-justify override ${'reason '.repeat(i % 20)}\n`,
  };
  const parts: string[] = kind === 'catalog' ? ['workloads:\n'] : [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = unit[kind](i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Fixed attacks every target meets once per run, beside the random cases. */
export function specialInputs(bigBytes: number): { name: string; text: string }[] {
  return [
    { name: 'billion laughs', text: billionLaughs() },
    { name: 'deep flow nesting (10,000)', text: deepYaml(10_000, true) },
    { name: 'deep block nesting (2,000)', text: deepYaml(2_000, false) },
    { name: 'deep HCL nesting (5,000)', text: deepHcl(5_000) },
    { name: `YAML ${bigBytes} bytes`, text: bigFile('yaml', bigBytes) },
    { name: `HCL ${bigBytes} bytes`, text: bigFile('hcl', bigBytes) },
    { name: `catalog ${bigBytes} bytes`, text: bigFile('catalog', bigBytes) },
    { name: `comment ${bigBytes} bytes`, text: bigFile('comment', bigBytes) },
    { name: 'NUL and lone surrogates', text: 'kind: ClusterQueue\n\u0000\ud800 nominalQuota: \udfff\n' },
  ];
}

type Mutation =
  | { op: 'quantity'; at: number; value: string }
  | { op: 'proto'; at: number; line: string }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; length: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'indent'; at: number; by: number }
  | { op: 'alias'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('quantity' as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE_QUANTITIES) }),
  fc.record({ op: fc.constant('proto' as const), at: fc.nat(), line: fc.constantFrom(...PROTO_LINES) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 400 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('{', '}', '[', '"', "'", '${', '{{', '&x ', '*x', '<<: *x', '\t', ': ', '- ', '---\n', '#', '\\'),
    ),
  }),
  fc.record({ op: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ op: fc.constant('alias' as const), at: fc.nat() }),
);

const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g;

function applyMutation(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const line = lines.length === 0 ? 0 : m.at % lines.length;
  switch (m.op) {
    case 'quantity': {
      const numbers = [...text.matchAll(NUMBER)];
      const hit = numbers.length === 0 ? undefined : numbers[m.at % numbers.length];
      if (hit?.index === undefined) return text;
      return text.slice(0, hit.index) + m.value + text.slice(hit.index + hit[0].length);
    }
    case 'proto': {
      const indent = /^\s*/.exec(lines[line] ?? '')?.[0] ?? '';
      lines.splice(line, 0, ...m.line.split('\n').map((l) => indent + l));
      return lines.join('\n');
    }
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'duplicate': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at, at + m.length) + text.slice(at);
    }
    case 'delete': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + m.length);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'indent': {
      const current = lines[line] ?? '';
      lines[line] = m.by >= 0 ? ' '.repeat(m.by) + current : current.slice(-m.by);
      return lines.join('\n');
    }
    case 'alias':
      // An anchor early, a merge of it later: aliases where a parser expects plain values.
      lines.splice(line, 0, `${/^\s*/.exec(lines[line] ?? '')?.[0] ?? ''}<<: *x`);
      return `x: &x {nominalQuota: .nan, count: -1}\n${lines.join('\n')}`;
  }
}

export function mutatedCorpus(seeds: readonly Seed[]): fc.Arbitrary<string> {
  return fc
    .record({ seed: fc.constantFrom(...seeds), mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }) })
    .map(({ seed, mutations }) => mutations.reduce(applyMutation, seed.text));
}
