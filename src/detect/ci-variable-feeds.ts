import type { NotFollowed } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { isGpuKey } from './kit/signal-scan/signals.js';
import { hclBlocks } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { isTfvarsPath } from './terraform/module-scope.js';
import { isTerragruntPath } from './terraform/terragrunt.js';
import { isTfFile, parseTerraformFile } from './terraform/tf-json.js';
import { jsonVariables } from './terraform-json-feeds.js';
import { moduleFeeds, resolvePath } from './terraform-feeds.js';
import type { ModuleFeeds, UnreadGpu } from './terraform-feeds.js';
import type { TfvarsSide } from './tfvars-feeds.js';
import { foldersOfTree } from './terraform-tree-walk.js';
import { mentionsTfSettings, tfSettings } from './ci-variable-settings.js';
import type { TfSettings } from './ci-variable-settings.js';

/** Folders walked to find the modules declaring a variable a CI file sets. */
const MAX_DIRS = 512;
/** Terraform files read in that walk. */
const MAX_TF_FILES = 1024;

/** One side of the pull request for the walk: the feed's reader, and the folders below a folder. */
export interface CiSide extends TfvarsSide {
  dirs?: (dir: string) => Promise<string[]>;
}

/** A variable whose setting changed, at the side that sets it last. */
interface ChangedVar {
  name: string;
  values: string[];
  line: number | null;
}

/**
 * A changed CI workflow, script, Makefile or `.envrc` that sets Terraform variables
 * (`TF_VAR_gpu_nodes`, `-var node_count=4`, `-var-file=envs/prod.tfvars`): the parsers read a
 * module with its defaults and variable files, never with what a job hands it, so a changed
 * setting moves a count the review reads with another value. Each changed variable is looked up
 * in the modules of the tree that declare it; one that names a GPU, or reaches a GPU name in such
 * a module (terraform-feeds.ts, with every GPU name taken as unread, counted ones too), is not
 * followed. One reaching only CPU groups, or declared nowhere in a tree walked in full (Terraform
 * passes over a `TF_VAR_*` it does not declare), changes no GPU capacity. A variable file that
 * cannot be read, or a variable whose module cannot be found, is not followed where a module
 * of the tree names GPUs. One entry per file.
 */
export async function ciVariablesNotFed(
  file: string,
  texts: { before: string | null; after: string | null },
  sides: { base: CiSide; head: CiSide },
): Promise<NotFollowed[]> {
  if (isTfFile(file) || isTfvarsPath(file) || isTerragruntPath(file) || file.endsWith('.hcl')) return [];
  if (!mentionsTfSettings(texts.before) && !mentionsTfSettings(texts.after)) return [];
  const [before, after] = [tfSettings(texts.before), tfSettings(texts.after)];
  const side = texts.after === null ? sides.base : sides.head;
  const changed = changedVars(before, after);
  const files = await changedVarFiles(file, before, after, sides);
  changed.push(...files.changed);
  if (changed.length === 0 && files.unreadable === null) return [];
  const tree = treeModules(side, [...before.dirs, ...after.dirs], file);
  const reach = reachIn(side);
  for (const v of changed) {
    const { modules, complete } = await tree.declaring(v.name);
    const token = gpuToken(v.name, v.values);
    if (token !== null && (modules.length > 0 || !complete)) return [note(file, v.line, v.name, `it names \`${token}\``, token)];
    for (const dir of modules) {
      const gpu = (await reach(dir)).reachedGpu(`var.${v.name}`);
      if (gpu !== null) return [note(file, v.line, v.name, sizes(v.name, gpu), gpu.token)];
    }
    if (modules.length === 0 && !complete) {
      const gpu = await tree.anyGpu(reach);
      if (gpu !== null)
        return [note(file, v.line, v.name, `no module of this tree read here declares it, and ${at(gpu)} names GPUs`, gpu.token)];
    }
  }
  if (files.unreadable !== null) {
    const gpu = await tree.anyGpu(reach);
    if (gpu !== null)
      return [
        {
          file,
          line: files.unreadable.line,
          reason: 'program-config',
          subject: 'Terraform',
          needs: `the variable file \`${files.unreadable.path}\` it passes cannot be read here, and ${at(gpu)} names GPUs`,
          inputs: [files.unreadable.path],
        },
      ];
  }
  return [];
}

function changedVars(before: TfSettings, after: TfSettings): ChangedVar[] {
  const out: ChangedVar[] = [];
  for (const name of new Set([...after.vars.keys(), ...before.vars.keys()])) {
    const [b, a] = [before.vars.get(name), after.vars.get(name)];
    if (b?.value === a?.value) continue;
    out.push({ name, values: [a?.value, b?.value].filter((x) => x !== undefined), line: a?.line ?? null });
  }
  return out;
}

/**
 * The variables whose value differs between the variable files each side passes (`-var-file`),
 * read from the file's folder, the tree's root or a folder Terraform runs in; a path built from
 * a variable, or one found nowhere, is unreadable.
 */
async function changedVarFiles(
  file: string,
  before: TfSettings,
  after: TfSettings,
  sides: { base: CiSide; head: CiSide },
): Promise<{ changed: ChangedVar[]; unreadable: { path: string; line: number | null } | null }> {
  const key = (s: TfSettings) => JSON.stringify(s.varFiles.map((f) => f.path));
  if (key(before) === key(after)) return { changed: [], unreadable: null };
  let unreadable: { path: string; line: number | null } | null = null;
  const bodyOf = async (s: TfSettings, side: CiSide, atHead: boolean): Promise<Record<string, unknown>> => {
    const body: Record<string, unknown> = {};
    for (const f of s.varFiles) {
      const text = /[$%{}]/.test(f.path) ? null : await firstFound(side, candidates(f.path, file, s.dirs));
      const parsed = text === null ? null : parseTerraformFile(f.path, text);
      if (parsed === null || !parsed.ok) unreadable ??= { path: f.path, line: atHead ? f.line : null };
      else Object.assign(body, parsed.value);
    }
    return body;
  };
  const [b, a] = [await bodyOf(before, sides.base, false), await bodyOf(after, sides.head, true)];
  const line = after.varFiles[0]?.line ?? null;
  const changed: ChangedVar[] = [];
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [JSON.stringify(a[name] ?? null), JSON.stringify(b[name] ?? null)];
    if (x !== y) changed.push({ name, values: [x, y], line });
  }
  return { changed, unreadable };
}

/** Where a relative path may be read from: the folders Terraform runs in, the file's own folder, the root. */
function candidates(path: string, file: string, dirs: readonly string[]): string[] {
  if (path.startsWith('/') || path.startsWith('~')) return [];
  const bases = [...dirs.map((d) => d.replace(/^\.\//, '').replace(/\/$/, '')), dirOf(file), ''];
  return [...new Set(bases.flatMap((d) => [resolvePath('', d), resolvePath(dirOf(file), d)]))]
    .filter((d): d is string => d !== null)
    .map((d) => resolvePath(d, path))
    .filter((p): p is string => p !== null);
}

async function firstFound(side: CiSide, paths: readonly string[]): Promise<string | null> {
  for (const p of paths) {
    const text = await side.read(p);
    if (text !== null) return text;
  }
  return null;
}

/** What a module's values reach, every GPU name taken as unread (terraform-feeds.ts `readsNothing`). */
function reachIn(side: CiSide): (dir: string) => Promise<ModuleFeeds> {
  const io = { ...side, side: new Map(), readsNothing: true, cache: new Map<string, Promise<ModuleFeeds>>() };
  return (dir) => moduleFeeds(dir, io, io.cache);
}

/** The Terraform folders of the tree by the variables they declare: those the file names first, then a bounded walk. */
function treeModules(side: CiSide, named: readonly string[], file: string) {
  const declared = new Map<string, Promise<Set<string>>>();
  let reads = 0;
  const variablesOf = (dir: string): Promise<Set<string>> => {
    let found = declared.get(dir);
    if (found === undefined) {
      found = (async () => {
        const names = new Set<string>();
        for (const p of (await side.list(dir)).filter((x) => dirOf(x) === dir && isTfFile(x))) {
          if (++reads > MAX_TF_FILES) break;
          const text = (await side.read(p)) ?? '';
          const vars = p.endsWith('.json')
            ? jsonVariables(text).map((v) => v.name)
            : hclBlocks(text)
                .filter((b) => b.type === 'variable')
                .map((b) => b.labels[0] ?? '');
          vars.forEach((v) => names.add(v));
        }
        return names;
      })();
      declared.set(dir, found);
    }
    return found;
  };
  let walked: Promise<{ dirs: string[]; complete: boolean }> | undefined;
  const walk = () =>
    (walked ??= (async () => {
      const near = candidates('.', file, named);
      const tree = await foldersOfTree(side, MAX_DIRS);
      return { dirs: [...new Set([...near, ...tree.dirs])], complete: tree.complete };
    })());
  return {
    declaring: async (name: string): Promise<{ modules: string[]; complete: boolean }> => {
      const { dirs, complete } = await walk();
      const modules: string[] = [];
      for (const d of dirs) if ((await variablesOf(d)).has(name)) modules.push(d);
      return { modules, complete: complete && reads <= MAX_TF_FILES };
    },
    /** The first GPU name of a Terraform module of the tree, counted or not. */
    anyGpu: async (reach: (dir: string) => Promise<ModuleFeeds>): Promise<UnreadGpu | null> => {
      for (const d of (await walk()).dirs) {
        if (!(await side.list(d)).some((p) => dirOf(p) === d && isTfFile(p))) continue;
        const gpu = (await reach(d)).unreadGpu();
        if (gpu !== null) return gpu;
      }
      return null;
    },
  };
}

/** The GPU name a variable's name or value gives, as the floor reads GPU names; null when none. */
function gpuToken(name: string, values: readonly string[]): string | null {
  if (isGpuKey(name)) return name;
  for (const v of values) {
    const found = accountSignals('settings.tfvars', `${name} = ${JSON.stringify(v)}\n`).signals[0];
    if (found !== undefined) return found.token;
  }
  return null;
}

const at = (gpu: UnreadGpu) => `\`${gpu.token}\` (${gpu.path}:${String(gpu.line)})`;
const sizes = (name: string, gpu: UnreadGpu) => `\`var.${name}\` reaches ${at(gpu)}`;

function note(file: string, line: number | null, name: string, why: string, token: string): NotFollowed {
  return {
    file,
    line,
    reason: 'program-config',
    subject: 'Terraform',
    needs: `the review reads Terraform with its defaults and variable files, not with what this file sets, and ${why}`,
    inputs: [`var.${name}`, token],
  };
}
