import { parse } from '@cdktf/hcl2json';
import { escapeRegex } from '../../../src/util/escape-regex.js';
import type { Tree } from '../real-fixtures.js';
import type { Rewrite, Row } from './rewrite.js';
import { changedFiles } from './variant-tree.js';
import type { Sides, VariantTree } from './variant-tree.js';

/*
 * Terraform written another way that plans the same pools, or that plans copies of them: a
 * `for_each` over one key (the same) or two (twice the GPUs), the numbers handed in as a local
 * module's inputs or as a tfvars file elsewhere, the files in JSON syntax.
 */

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const isTf = (p: string) => p.endsWith('.tf');

/** Blocks whose copies plan GPU pools: the node-pool resources, and module calls handing in node groups or pools. */
const POOL_BLOCK =
  /^(resource\s+"(google_container_node_pool|aws_eks_node_group|azurerm_kubernetes_cluster_node_pool)"\s+"[^"]+"|module\s+"[^"]+")\s*\{\s*$/;

/** Line ranges [start, end] of the top-level blocks whose first line matches `head`. */
function topBlocks(lines: readonly string[], head: RegExp): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!head.test(lines[i] ?? '')) continue;
    let depth = 0;
    for (let j = i; j < lines.length; j++) {
      const line = (lines[j] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#.*$/, '');
      depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
      if (depth === 0) {
        out.push([i, j]);
        i = j;
        break;
      }
    }
  }
  return out;
}

/** Adds `meta` as the first line of every pool block without `for_each` or `count`; null when none was found. */
export function copyBlocks(text: string, meta: string): string | null {
  const lines = text.split('\n');
  const blocks = topBlocks(lines, POOL_BLOCK).filter(([s, e]) => {
    const body = lines.slice(s + 1, e);
    if (ownArguments(body).some((l) => /^\s*(for_each|count)\s*=/.test(l))) return false;
    // A block other blocks read without a key (`module.eks.cluster_name`) cannot be copied: each
    // reference would then need one, and the copied configuration is not valid Terraform.
    if (readWithoutKey(lines, s, e)) return false;
    return !lines[s]?.startsWith('module') || /node_groups|node_pools|gpu_pools/.test(body.join('\n'));
  });
  if (blocks.length === 0) return null;
  for (const [start] of [...blocks].reverse()) lines.splice(start + 1, 0, `  ${meta}`);
  return lines.join('\n');
}

/** Whether a line outside the block at [start, end] refers to it by address with an attribute and no key. */
function readWithoutKey(lines: readonly string[], start: number, end: number): boolean {
  const m = /^(?:resource\s+"([^"]+)"\s+"([^"]+)"|module\s+"([^"]+)")/.exec(lines[start] ?? '');
  if (!m) return false;
  const address = m[3] === undefined ? `${m[1] ?? ''}.${m[2] ?? ''}` : `module.${m[3]}`;
  const ref = new RegExp(`(?<![\\w.-])${escapeRegex(address)}\\.[A-Za-z_]`);
  return lines.some((l, i) => (i < start || i > end) && ref.test(l));
}

/**
 * The lines of a block's body outside its nested blocks: its own arguments. A `count` inside
 * `guest_accelerator { … }` is the accelerator's, not a copy of the block.
 */
function ownArguments(body: readonly string[]): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const line of body) {
    if (depth === 0) out.push(line);
    const code = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#.*$|\/\/.*$/, '');
    for (const ch of code) depth += ch === '{' || ch === '[' || ch === '(' ? 1 : ch === '}' || ch === ']' || ch === ')' ? -1 : 0;
    if (depth < 0) depth = 0;
  }
  return out;
}

function mapTf(sides: Sides, fn: (text: string) => string | null): Sides | null {
  // An object, not a `let`: the closures set it, which narrowing does not see.
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      const out = isTf(path) ? fn(text) : null;
      if (out !== null) seen.touched = true;
      files[path] = out ?? text;
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}

export const forEachOneKey: Rewrite = {
  id: 'tf-for_each-one',
  what: 'each pool block under `for_each` over one key',
  apply: (sides) => mapTf(sides, (text) => copyBlocks(text, 'for_each = toset(["only"])')),
};

const doubled = (rows: readonly Row[]): Row[] => rows.map(([kind, name, before, after]) => [kind, name, before * 2, after * 2]);

export const forEachTwoKeys: Rewrite = {
  id: 'tf-for_each-two',
  what: 'each pool block under `for_each` over two keys (twice the GPUs)',
  apply: (sides) => mapTf(sides, (text) => copyBlocks(text, 'for_each = toset(["a", "b"])')),
  expect: doubled,
};

export const countTwo: Rewrite = {
  id: 'tf-count-two',
  what: 'each pool block with `count = 2` (twice the GPUs)',
  apply: (sides) => mapTf(sides, (text) => copyBlocks(text, 'count = 2')),
  expect: doubled,
};

/** Top-level blocks whose numbers cannot come from a variable. */
const NO_VARIABLES = /^(variable|output|terraform|provider)\b/;

/**
 * Each literal whole number of an attribute (`max_node_count = 1000`) in the directory's files
 * (not in variable, output, terraform or provider blocks) made `var.gj_<n>`, numbered in the
 * order met; the values, by name.
 */
export function liftNumbers(files: [string, string][]): { files: Tree; values: [string, number][] } {
  const values: [string, number][] = [];
  const out: Tree = {};
  for (const [path, text] of files) {
    const lines = text.split('\n');
    let block: string | null = null;
    let depth = 0;
    out[path] = lines
      .map((line) => {
        if (depth === 0) block = line.trimStart();
        const stripped = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#.*$/, '');
        const inside = depth > 0;
        depth += (stripped.match(/\{/g) ?? []).length - (stripped.match(/\}/g) ?? []).length;
        const m = /^(\s*[a-z_][a-z0-9_]*\s*=\s*)(\d+)(\s*(?:#.*)?)$/.exec(line);
        if (!inside || !m || (block !== null && NO_VARIABLES.test(block))) return line;
        const name = `gj_${values.length + 1}`;
        values.push([name, Number(m[2])]);
        return `${m[1] ?? ''}var.${name}${m[3] ?? ''}`;
      })
      .join('\n');
  }
  return { files: out, values };
}

/** The directories of the case's changed Terraform files, when none of them holds tfvars (a child module reads none). */
export function tfDirs(sides: Sides): string[] | null {
  const dirs = [...new Set(changedFiles(sides).filter(isTf).map(dirOf))];
  if (dirs.length === 0) return null;
  const all = [...Object.keys(sides.base.files), ...Object.keys(sides.head.files)];
  if (all.some((p) => dirs.includes(dirOf(p)) && /\.tfvars(\.json)?$/.test(p))) return null;
  return dirs;
}

/** Relative module sources, one directory deeper. */
function deeper(text: string): string {
  return text.replace(/(\bsource\s*=\s*")(\.\.?\/)/g, '$1../../$2');
}

/**
 * The directory's Terraform moved into a local module (`modules/gj`), its numbers that module's
 * inputs, which a root file beside where it was hands in.
 */
export const intoModuleInputs: Rewrite = {
  id: 'tf-module-inputs',
  what: 'the directory a local module, its numbers module inputs',
  apply: (sides) => {
    const dirs = tfDirs(sides);
    if (dirs === null) return null;
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = {};
      for (const [path, text] of Object.entries(tree.files)) if (!dirs.includes(dirOf(path)) || !isTf(path)) files[path] = text;
      for (const dir of dirs) {
        const own = Object.entries(tree.files).filter(([p]) => dirOf(p) === dir && isTf(p));
        const lifted = liftNumbers(own);
        for (const [path, text] of Object.entries(lifted.files))
          files[join(join(dir, 'modules/gj'), path.slice(path.lastIndexOf('/') + 1))] = deeper(text);
        files[join(dir, 'modules/gj/gj-inputs.tf')] = lifted.values.map(([name]) => `variable "${name}" {}\n`).join('');
        files[join(dir, 'gj-root.tf')] =
          `module "gj" {\n  source = "./modules/gj"\n${lifted.values.map(([name, v]) => `  ${name} = ${v}\n`).join('')}}\n`;
      }
      return { files, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/**
 * The numbers made variables with no default, their values in a tfvars file of another folder,
 * which Terraform reads only when told to (`-var-file`): what the pull request sets there cannot
 * be known to apply, so the honest answer is not followed. Only where the pull request changes a
 * value there: one that changes a comment beside them changes nothing either way.
 */
/** The numbers lifted into variables whose values are in a tfvars file of another folder; `twin` adds a second folder declaring them. */
function tfvarsIn(sides: Sides, twin: boolean): Sides | null {
  const dirs = tfDirs(sides);
  if (dirs === null) return null;
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = { ...tree.files };
    for (const dir of dirs) {
      const lifted = liftNumbers(Object.entries(tree.files).filter(([p]) => dirOf(p) === dir && isTf(p)));
      Object.assign(files, lifted.files);
      const inputs = lifted.values.map(([name]) => `variable "${name}" {}\n`).join('');
      files[join(dir, 'gj-inputs.tf')] = inputs;
      const parent = dir === '' ? '' : dirOf(dir);
      if (twin) files[join(join(parent, `gj-twin-${dir.replace(/\//g, '-') || 'root'}`), 'variables.tf')] = inputs;
      files[join(join(parent, 'gj-env'), `${dir.replace(/\//g, '-') || 'root'}.tfvars`)] = lifted.values
        .map(([name, v]) => `${name} = ${v}\n`)
        .join('');
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  const values = (p: string) => p.endsWith('.tfvars') && p.includes('gj-env/');
  const moved = [...Object.keys(out.head.files), ...Object.keys(out.base.files)].some(
    (p) => values(p) && out.base.files[p] !== out.head.files[p],
  );
  return moved ? out : null;
}

export const tfvarsElsewhere: Rewrite = {
  id: 'tf-tfvars-elsewhere',
  // Read with the one folder beside that declares all its variables, as `-var-file` would set them.
  what: 'the numbers variables, their values in a tfvars file of another folder',
  apply: (sides) => tfvarsIn(sides, false),
};

export const tfvarsAmbiguous: Rewrite = {
  id: 'tf-tfvars-two-modules',
  // Two folders beside declare them all: which one `-var-file` sets is not in the repository.
  what: 'the same tfvars file elsewhere, with a second folder declaring its variables',
  expect: 'not-followed',
  apply: (sides) => tfvarsIn(sides, true),
};

/** Terraform's JSON syntax for a file, from its HCL (expressions as `${…}` strings, as the syntax has them). */
export async function toJson(path: string, text: string): Promise<string | null> {
  let body: Record<string, unknown>;
  try {
    body = (await parse(path, text)) as Record<string, unknown>;
  } catch {
    return null;
  }
  // A variable's type is a type expression, written bare in JSON syntax.
  const variables = body.variable as Record<string, { type?: unknown }[]> | undefined;
  for (const blocks of Object.values(variables ?? {}))
    for (const v of blocks) if (typeof v.type === 'string') v.type = v.type.replace(/^\$\{(.*)\}$/s, '$1');
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** Every `.tf` file of the case as its `.tf.json` twin. */
export const tfJsonTwin: Rewrite = {
  id: 'tf-json',
  what: 'every `.tf` file in JSON syntax (`.tf.json`)',
  apply: async (sides) => {
    if (!changedFiles(sides).some(isTf)) return null;
    const side = async (tree: VariantTree): Promise<VariantTree | null> => {
      const files: Tree = {};
      for (const [path, text] of Object.entries(tree.files)) {
        if (!isTf(path)) {
          files[path] = text;
          continue;
        }
        const json = await toJson(path, text);
        if (json === null) return null;
        files[`${path}.json`] = json;
      }
      return { files, special: { ...tree.special } };
    };
    const base = await side(sides.base);
    const head = await side(sides.head);
    return base && head ? { base, head } : null;
  },
};
