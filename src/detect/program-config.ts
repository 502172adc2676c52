import { parseYamlLinear } from '../util/yaml-linear.js';
import type { NotFollowed, TreeReader } from '../domain/index.js';
import { changedKeys, valueAt } from './kit/changed-keys.js';
import { namesGpu, sizesCapacity } from './kit/gpu-signal.js';
import { accountSignals, scansPath } from './kit/signal-scan/account.js';
import { dirOf } from './kit/paths.js';
import { ownModuleDir } from './terraform-feeds.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * Files whose values a program takes in, and the program they feed, which no reader evaluates:
 * - a Pulumi stack's `Pulumi.<stack>.yaml` (and the project's `Pulumi.yaml`, whose `config` sets
 *   defaults), read by the program in the project's folder;
 * - the AWS CDK's `cdk.json` and `cdk.context.json`, whose context the app in that folder reads;
 * - a Terraform Stack's `.tfcomponent.hcl`, `.tfdeploy.hcl` and `.tfstack.hcl` files, whose inputs
 *   feed the modules their components name;
 * - a Terragrunt `terragrunt.stack.hcl`, whose `values` feed the units (and their modules) it names.
 * None names a GPU where it sets a node count; the program it feeds may. Such a file is not
 * followed when the program names GPUs, or when the program cannot be read in full (a module from
 * elsewhere, more files than the bound); a change to it that reaches no such program is no capacity.
 */
type Kind = 'pulumi' | 'cdk' | 'terraform-stack' | 'terragrunt-stack';

const KINDS: readonly [RegExp, Kind][] = [
  [/(?:^|\/)Pulumi(?:\.[^/]+)?\.ya?ml$/, 'pulumi'],
  [/(?:^|\/)cdk(?:\.context)?\.json$/, 'cdk'],
  [/\.(?:tfcomponent|tfdeploy|tfstack)\.hcl$/, 'terraform-stack'],
  [/(?:^|\/)terragrunt\.stack\.hcl$/, 'terragrunt-stack'],
];

const WHAT: Readonly<Record<Kind, string>> = {
  pulumi: 'the Pulumi program',
  cdk: 'the AWS CDK app',
  'terraform-stack': "the Terraform Stack's components",
  'terragrunt-stack': "the Terragrunt stack's units",
};

/** Files of one program read at most, and folders walked: past them, the program is not read in full. */
const MAX_FILES = 400;
const MAX_DIRS = 200;
/** Folders a program's tree holds that are not its source: dependencies, builds, caches. */
const NOT_SOURCE = /^(?:node_modules|\.git|\.venv|venv|__pycache__|\.pulumi|cdk\.out|\.terraform|\.terragrunt-cache|dist|build|target)$/;
/** A `source = "…"` of an HCL block (a component, a unit, a module call, a unit's `terraform` block). */
const SOURCE = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/gm;

export function programConfigKind(path: string): Kind | null {
  return KINDS.find(([re]) => re.test(path))?.[1] ?? null;
}

export interface ProgramIo {
  read: TreeReader['read'];
  list: (dir: string) => Promise<string[]>;
  dirs?: (dir: string) => Promise<string[]>;
  repositories?: readonly string[];
}

/**
 * The note on a changed configuration file of a program (see above), or null when what changed
 * reaches no program that names GPUs. `before` and `after` are the file's text at each side.
 */
export async function programConfigNote(
  file: string,
  texts: { before: string | null; after: string | null },
  io: ProgramIo,
): Promise<NotFollowed | null> {
  const kind = programConfigKind(file);
  if (kind === null) return null;
  const changed = changedValues(kind, file, texts.before, texts.after);
  if (changed !== null && changed.length === 0) return null;
  const program = await programOf(kind, file, texts.after ?? texts.before ?? '', io);
  const keys = changed === null ? [] : changed.filter((k) => program.unknown !== null || fedKey(kind, k, program));
  if (changed !== null && keys.length === 0) return null;
  const why = program.unknown ?? (program.gpu === null ? null : `it names \`${program.gpu.token}\` at ${program.gpu.at}`);
  if (why === null) return null;
  return {
    file,
    line: null,
    reason: 'program-config',
    subject: `${WHAT[kind]} in ${dirOf(file) || 'the repository root'}`,
    needs: why,
    ...(keys.length > 0 ? { inputs: keys.slice(0, 8) } : {}),
  };
}

export interface Program {
  /** The first GPU name of the program's files, outside comments and other no-capacity contexts. */
  gpu: { token: string; at: string } | null;
  /** Why the program could not be read in full, when it could not. */
  unknown: string | null;
  /** The program's text, to tell which configuration keys it reads. */
  texts: string[];
}

/** The keys whose values changed, or null when the format's keys are not told apart (HCL stacks). */
function changedValues(kind: Kind, file: string, before: string | null, after: string | null): string[] | null {
  if (kind === 'terraform-stack' || kind === 'terragrunt-stack') return null;
  const values = (text: string | null): Record<string, unknown> | null => {
    if (text === null) return {};
    try {
      const doc: unknown = file.endsWith('.json') ? JSON.parse(text) : parseYamlLinear(text);
      const section =
        kind === 'cdk' && !file.endsWith('cdk.context.json') ? field(doc, 'context') : kind === 'cdk' ? doc : field(doc, 'config');
      return section !== null && typeof section === 'object' && !Array.isArray(section) ? (section as Record<string, unknown>) : {};
    } catch {
      return null;
    }
  };
  const [a, b] = [values(before), values(after)];
  // Unreadable at a side: every key of the other counts as changed.
  if (a === null || b === null) return Object.keys(a ?? b ?? { '(the file)': 1 });
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  // The CDK caches its lookups (availability zones, AMIs) in cdk.context.json under keys naming the account.
  return keys.filter((k) => !(kind === 'cdk' && /:account=/.test(k)) && maySize(k, a[k], b[k])).sort();
}

/**
 * Whether a changed value may size capacity or pick its machines: a number (a count, whatever its
 * name), a value naming a GPU, or a key that names a size, a pool or a machine type (kit/gpu-signal.ts),
 * leaf by leaf. A cluster's name, a region, a log level changed reach no GPU count.
 */
function maySize(key: string, before: unknown, after: unknown): boolean {
  const leaf = (path: string) => path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':')) + 1).replace(/\[\d+\]$/, '');
  return changedKeys(before, after).some((path) => {
    const values = [valueAt(before, path), valueAt(after, path)];
    return (
      sizesCapacity(leaf(path === '' ? key : path)) ||
      sizesCapacity(leaf(key)) ||
      values.some((v) => typeof v === 'number' || (typeof v === 'string' && (/^\s*\d+\s*$/.test(v) || namesGpu(v))))
    );
  });
}

function field(doc: unknown, key: string): unknown {
  return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>)[key] : undefined;
}

/**
 * A changed key the program may read: its name quoted in the program's text (`config.get("nodes")`,
 * `Config("aws").get("region")`, `tryGetContext('maxNodes')`) or referenced by a YAML program
 * (`${nodes}`). A provider's setting no program line names (`aws:region`) reaches no declaration of its.
 */
function fedKey(kind: Kind, key: string, program: Program): boolean {
  if (kind !== 'pulumi' && kind !== 'cdk') return true;
  const bare = kind === 'pulumi' ? key.slice(key.indexOf(':') + 1) : key;
  const quoted = new RegExp(`["'\`]${escapeRegex(bare)}["'\`]|\\$\\{${escapeRegex(bare)}[}.\\[]`);
  return program.texts.some((t) => quoted.test(t));
}

async function programOf(kind: Kind, file: string, text: string, io: ProgramIo): Promise<Program> {
  if (kind === 'pulumi' || kind === 'cdk') return programIn(dirOf(file), file, io);
  const files: string[] = [];
  const unknown = await modules(file, text, io, files);
  return scanProgram(files, file, unknown, io);
}

/**
 * The program whose project folder is `dir` (its files, subfolders too, but for dependencies and
 * builds), read without `except`: the first GPU name it holds, or why it could not be read in full.
 */
export async function programIn(dir: string, except: string, io: ProgramIo): Promise<Program> {
  const files: string[] = [];
  const walked = await tree(dir, io, files);
  return scanProgram(files, except, walked ? null : `its folder holds more than ${MAX_FILES} files, which were not all read`, io);
}

async function scanProgram(files: readonly string[], except: string, unknown: string | null, io: ProgramIo): Promise<Program> {
  const program: Program = { gpu: null, unknown, texts: [] };
  for (const path of files.filter((p) => p !== except && scansPath(p)).slice(0, MAX_FILES)) {
    const body = await io.read(path);
    if (body === null) continue;
    program.texts.push(body);
    if (program.gpu !== null) continue;
    const first = accountSignals(path, body).signals.find((s) => s.by === null);
    if (first) program.gpu = { token: first.token, at: `${path}:${first.line}` };
  }
  return program;
}

/** Every file under `dir`, its subfolders too but for dependencies and builds; false past the bounds. */
async function tree(dir: string, io: ProgramIo, out: string[]): Promise<boolean> {
  const queue = [dir];
  for (let walked = 0; queue.length > 0; walked++) {
    if (walked >= MAX_DIRS) return false;
    const at = queue.shift() ?? '';
    out.push(...(await io.list(at)).filter((p) => dirOf(p) === at));
    if (out.length > MAX_FILES) return false;
    if (!io.dirs) continue;
    for (const sub of await io.dirs(at)) if (!NOT_SOURCE.test(sub.slice(sub.lastIndexOf('/') + 1))) queue.push(sub);
  }
  return true;
}

/**
 * The files of the folders a stack's `source`s name, and of those their files' `source`s name in
 * turn (a unit's module, a module's modules), with the stack's own folder. A source that is not a
 * folder of this repository (a registry module, a Git URL elsewhere) cannot be read: its name.
 */
async function modules(file: string, text: string, io: ProgramIo, out: string[]): Promise<string | null> {
  const seen = new Set<string>([dirOf(file)]);
  const queue: [string, string][] = [[file, text]];
  for (const p of (await io.list(dirOf(file))).filter((p) => dirOf(p) === dirOf(file) && p !== file)) {
    out.push(p);
    const body = await io.read(p);
    if (body !== null && /\.(?:hcl|tf|tofu)$/.test(p)) queue.push([p, body]);
  }
  while (queue.length > 0) {
    const [path, body] = queue.shift() ?? ['', ''];
    const providers = providerBlocks(body);
    for (const m of body.matchAll(SOURCE)) {
      // A provider's source (`hashicorp/aws`) names a plugin, not a module.
      if (providers.some(([from, to]) => m.index >= from && m.index < to)) continue;
      const source = (m[1] ?? '').replace(/[?#].*$/, '');
      const dir = ownModuleDir(source.replace(/\/\/+/g, '/').replace(/\/$/, ''), dirOf(path), io.repositories ?? []);
      if (dir === null || dir === undefined) return `it takes \`${m[1] ?? ''}\` (${path}), which is not a folder of this repository`;
      if (seen.has(dir)) continue;
      if (seen.size >= MAX_DIRS || out.length > MAX_FILES) return `its modules hold more than ${MAX_FILES} files, which were not all read`;
      seen.add(dir);
      for (const p of (await io.list(dir)).filter((p) => dirOf(p) === dir)) {
        out.push(p);
        const inner = /\.(?:hcl|tf|tofu)$/.test(p) ? await io.read(p) : null;
        if (inner !== null) queue.push([p, inner]);
      }
    }
  }
  return null;
}

const REQUIRED_PROVIDERS = /\brequired_providers[ \t]*\{/g;

/** The character ranges of the `required_providers` blocks of an HCL text, by braces outside strings. */
function providerBlocks(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(REQUIRED_PROVIDERS)) {
    let depth = 0;
    let quoted = false;
    let i = m.index + m[0].length - 1;
    for (; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '\\') i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    out.push([m.index, i]);
  }
  return out;
}
