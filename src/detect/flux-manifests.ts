import type { TreeReader } from '../domain/index.js';
import { dirOf } from './kit/paths.js';
import { appliedFiles, buildFiles, kustomizationsNear, newBudget, sources, substitute, withOwn } from './flux-variables.js';
import type { Budget, FluxKustomization, FluxVariablesIo, Vars } from './flux-variables.js';

/**
 * A changed manifest that Flux applies with post-build variables: `nominalQuota: ${gpus:=8}`.
 * The objects the cluster gets are the file with each `${var}` replaced, by the value the
 * Kustomization's `postBuild.substitute` or the ConfigMaps and Secrets its `substituteFrom` names
 * give, or else by the default written after `:=` / `:-`. Read as written, such a count is an
 * expression and the file is not followed; here it is read as Flux substitutes it, where that is
 * certain: one Flux Kustomization of the tree (found above the file, bounded) applies it, every
 * source it names is found in the build that declares it, and every reference is of a form
 * substituted here, with a value or a default unless it sits inside a longer text. Otherwise the text is left as written (not followed).
 */

// Flux's variable names (drone/envsubst, as Flux validates them), and any reference to one.
const ANY_REF = /\$\{([_a-zA-Z][_a-zA-Z0-9]*)([^}]*)\}/g;
// How far above the file a folder building the Flux Kustomization that applies it is looked for.
const MAX_UP = 4;

interface Found {
  k: FluxKustomization;
  /** The files of the build that declares it, where its `substituteFrom` sources are looked up. */
  near: string[];
}

/** The text as Flux substitutes it at this side, or null when it is not certain (or nothing applies it). */
export async function fluxSubstituted(
  path: string,
  text: string,
  near: { read: TreeReader['read']; list(dir: string): Promise<string[]>; dirs?(dir: string): Promise<string[]> },
): Promise<string | null> {
  if (!/\.ya?ml$/i.test(path) || !text.includes('${')) return null;
  // `$${v}` is written out as `${v}`, and an object may turn substitution off: neither is substituted here.
  if (text.includes('$${') || /kustomize\.toolkit\.fluxcd\.io\/substitute\s*:\s*["']?disabled/.test(text)) return null;
  const side: TreeReader = { label: 'flux', read: (p) => near.read(p) };
  const io: FluxVariablesIo = {
    base: side,
    head: side,
    list: (d) => near.list(d),
    ...(near.dirs ? { dirs: (d: string) => near.dirs?.(d) ?? Promise.resolve([]) } : {}),
  };
  const budget = newBudget();
  const found = await applying(path, io, budget, side);
  // Applied by none found, or by two (each with its own variables): which values it gets is not
  // certain; nor where the search ran out before its end (another may apply it).
  if (found === null || found.length !== 1 || budget.reads <= 0 || budget.files <= 0) return null;
  const [{ k, near: files } = { k: null, near: [] }] = found;
  if (k === null) return null;
  const vars = await variables(k, files, side);
  if (vars === null) return null;
  for (const m of text.matchAll(ANY_REF)) {
    const [, name = '', rest = ''] = m;
    if (!/^(?::?[-=][^}\n]*)?$/.test(rest)) return null;
    const held = vars.get(name);
    // An encrypted value, a value over lines, or no value and no default (Flux writes an empty string).
    const value = held === undefined ? undefined : held.value;
    if (value === null || value?.includes('\n') === true) return null;
    // Unset with no default, Flux writes an empty string (or fails, in its strict mode): a whole
    // value so written is not certain; inside a longer text (a script's `${HOST}`) it sizes nothing
    // and is left as written.
    if (held === undefined && rest === '' && wholeValue(text, m.index)) return null;
  }
  return substitute(text, vars);
}

/** Whether the reference at `at` is all of its line's value (`key: ${v}`, `- ${v}`, quoted or not). */
function wholeValue(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  const line = text.slice(start, end < 0 ? text.length : end);
  return /^\s*(?:-\s+)*(?:[^:#]*:\s+)?["']?\$\{[^}]*\}["']?\s*(?:#.*)?$/.test(line);
}

/**
 * The Flux Kustomizations whose build applies `path`: through the builds of the folders above it,
 * else those declared anywhere in the tree (a `clusters/<name>/` folder whose Kustomization's
 * `path` is the file's folder); null when the walk of the tree stopped at its bound.
 */
async function applying(path: string, io: FluxVariablesIo, budget: Budget, side: TreeReader): Promise<Found[] | null> {
  const out = new Map<string, Found>();
  const take = async (probe: string) => {
    const ks = await kustomizationsNear(probe, io, budget, side);
    if (ks.length === 0) return;
    const files = await buildFiles(dirOf(probe), io, budget, [probe], side);
    for (const k of ks) if ((await appliedFiles(k, io, budget, side)).includes(path)) out.set(k.name, { k, near: files });
  };
  let dir = dirOf(path);
  for (let up = 0; up <= MAX_UP; up++) {
    await take(dir === '' ? 'kustomization.yaml' : `${dir}/kustomization.yaml`);
    if (dir === '' || budget.reads <= 0) break;
    dir = dirOf(dir);
  }
  if (out.size > 0) return [...out.values()];
  const declared = await fluxFilesInTree(io, side);
  if (declared === null) return null;
  for (const file of declared) await take(file);
  return [...out.values()];
}

// The walk of the tree for files declaring Flux Kustomizations, as bounded as the search for chart installs.
const MAX_DIRS = 1000;
const MAX_FILES = 400;
const SKIP_DIR = /(^|\/)(\.git|node_modules|vendor|\.terraform|\.terragrunt-cache|templates)$/;

/** The YAML files of the tree that declare a Flux Kustomization; null when the tree cannot be walked to its end. */
async function fluxFilesInTree(io: FluxVariablesIo, side: TreeReader): Promise<string[] | null> {
  if (!io.dirs) return null;
  const out: string[] = [];
  const queue = [''];
  let dirs = 0;
  let files = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (++dirs > MAX_DIRS) return null;
    const yaml = (await io.list(dir)).filter((p) => /\.ya?ml$/i.test(p));
    files += yaml.length;
    if (files > MAX_FILES) return null;
    const texts = await Promise.all(yaml.map((p) => side.read(p)));
    for (const [i, text] of texts.entries())
      if (text !== null && text.includes('kustomize.toolkit.fluxcd.io/') && /\bkind:\s*["']?Kustomization\b/.test(text))
        out.push(yaml[i] ?? '');
    queue.push(...(await io.dirs(dir)).filter((d) => !SKIP_DIR.test(d)).sort());
  }
  return out;
}

/** Its variables: `substituteFrom` sources in order, its own `substitute` over them; null when a source is not found. */
async function variables(k: FluxKustomization, files: readonly string[], side: TreeReader): Promise<Vars | null> {
  let from: Vars = new Map();
  for (const id of k.from) {
    let vars: Vars | null = null;
    for (const file of files) {
      const text = /\.ya?ml$/i.test(file) ? await side.read(file) : null;
      const source = text === null ? undefined : sources(text).find((s) => s.id === id);
      if (source !== undefined) vars = new Map([...(vars ?? []), ...source.vars]);
    }
    // A ConfigMap of the cluster the tree does not hold: any default may be overridden by it.
    if (vars === null) return null;
    from = new Map([...from, ...vars]);
  }
  return withOwn(from, k.substitute);
}

/** Whether the file reads as Flux substitutes it at each side it is at (what detectSide then reads). */
export async function substitutedAtBothSides(path: string, io: FluxVariablesIo): Promise<boolean> {
  for (const side of [io.base, io.head]) {
    const text = await side.read(path);
    if (text === null) continue;
    const near = {
      read: (p: string) => side.read(p),
      list: (d: string) => io.list(d),
      ...(io.dirs ? { dirs: (d: string) => io.dirs?.(d) ?? Promise.resolve([]) } : {}),
    };
    if ((await fluxSubstituted(path, text, near)) === null) return false;
  }
  return true;
}
