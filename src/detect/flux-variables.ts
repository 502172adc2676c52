import type { NotFollowed, TreeReader } from '../domain/index.js';
import { detectFile } from './detect-file.js';
import { namesGpu } from './kit/gpu-signal.js';
import { isGpuKey } from './kit/signal-scan/signals.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { dirOf } from './kit/paths.js';
import {
  isKustomizationPath,
  KUSTOMIZATION_NAMES,
  kustomizationReferences,
  readKustomization,
  resolvePath,
} from './kustomize/kustomization.js';
import { isObject, jsonText } from './kustomize/patch-apply.js';
import type { JsonObject } from './kustomize/patch-apply.js';
import { loadObjects } from './kustomize/patches.js';
import type { CapacityParser, ParseResult } from './parser.js';
import { unfollowedKey } from './coverage.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * Flux post-build variables. A Flux `Kustomization` (kustomize.toolkit.fluxcd.io) substitutes
 * `${var}` in every manifest it applies, from its `postBuild.substitute` map and from the
 * ConfigMaps and Secrets its `postBuild.substituteFrom` names. A pull request that changes such a
 * variable changes the objects of files it does not touch: a time-slicing `replicas:
 * ${ts_replicas}`, a queue's `nominalQuota: ${gpu_quota}`. Those files are read here with each
 * side's values substituted, so what the variable changes is counted; where the substitution
 * cannot be made (a form other than `${v}`, `${v:=d}`, `${v:-d}`; an encrypted value), it is not
 * followed on the changed variable.
 *
 * The Kustomizations are found the way the cluster reaches them: through the kustomization of the
 * changed file's folder (its resources, components and patches), bounded; a Kustomization reached
 * otherwise is not looked for.
 */

/**
 * Reads of one review, whatever the pull request: kustomizations walked, and files searched for
 * Flux Kustomizations and for the variables. Reads are API calls for the App; a plain ConfigMap
 * change in a large kustomize tree must not cost more than these.
 */
const MAX_READS = 128;
const MAX_FILES = 256;
const FLUX_GROUP = 'kustomize.toolkit.fluxcd.io/';
// Flux's variable names (drone/envsubst, as Flux validates them).
const NAME = '[_a-zA-Z][_a-zA-Z0-9]*';
const SIMPLE = new RegExp(`\\$\\{(${NAME})(?:(:?[-=])([^}]*))?\\}`, 'g');
const ANY_REF = new RegExp(`\\$\\{(${NAME})([^}]*)\\}`, 'g');

export interface FluxVariablesIo {
  base: TreeReader;
  head: TreeReader;
  list(dir: string): Promise<string[]>;
  dirs?(dir: string): Promise<string[]>;
}

export interface FluxVariables {
  base: ParseResult;
  head: ParseResult;
  /** Changed variable files whose changed values were followed into what they set. */
  followed: string[];
  notFollowed: NotFollowed[];
}

/** One source of variables: each value as written, and as substituted (null for an encrypted value). */
export type Vars = Map<string, { raw: string; value: string | null }>;
export interface Source {
  /** `ConfigMap/name`, `Secret/name`, or `Kustomization/name` for its own `substitute`. */
  id: string;
  vars: Vars;
}

export interface Budget {
  reads: number;
  files: number;
}

export interface FluxKustomization {
  name: string;
  path: string | null;
  components: string[];
  from: Set<string>;
  substitute: Vars;
}

export async function followFluxVariables(
  changed: readonly string[],
  io: FluxVariablesIo,
  parsers: readonly CapacityParser[],
  // Whether a changed file is read at each side as Flux substitutes it (flux-manifests.ts, which reads this module).
  substitutedAtBothSides: (file: string, io: FluxVariablesIo) => Promise<boolean> = () => Promise.resolve(false),
): Promise<FluxVariables> {
  const out: FluxVariables = { base: empty(), head: empty(), followed: [], notFollowed: [] };
  const budget = newBudget();
  const fed = new Map<string, string>();
  for (const path of changed.filter((p) => /\.ya?ml$/i.test(p))) {
    const [before, after] = [await io.base.read(path), await io.head.read(path)];
    const [atBase, atHead] = [sources(before), sources(after)];
    const changedKeys = changedVariables(atBase, atHead);
    // The variables that name GPUs are followed too, changed or not: the floor asks it of the file.
    const named = gpuNamed([...atBase, ...atHead]);
    if (changedKeys.size === 0 && named.size === 0) continue;
    const applied = await kustomizationsNear(path, io, budget);
    const seen = new Set<string>();
    let counted = false;
    for (const id of new Set([...changedKeys.keys(), ...named.keys()])) {
      const moved = changedKeys.get(id) ?? new Set<string>();
      const keys = new Set([...moved, ...(named.get(id) ?? [])]);
      for (const k of applied.filter((k) => k.from.has(id) || `Kustomization/${k.name}` === id)) {
        for (const file of await appliedFiles(k, io, budget)) {
          // A changed file is read at each side by its own reader: as Flux substitutes it where that is
          // certain (flux-manifests.ts), so the variables it uses are read where they are used; else as
          // written, its references then unknown to its parsers.
          if (changed.includes(file)) {
            const own = (await io.head.read(file)) ?? '';
            if (referenced(own, keys).length === 0 || !(await substitutedAtBothSides(file, io))) continue;
            for (const key of referenced(own, keys)) seen.add(`${id} ${key}`);
            if (referenced(own, moved).length > 0) counted = true;
            continue;
          }
          const text = await io.head.read(file);
          if (text === null) continue;
          for (const key of referenced(text, keys)) seen.add(`${id} ${key}`);
          if (referenced(text, moved).length === 0) continue;
          const where = { file: path, line: lineOfKey(after ?? '', [...moved][0] ?? '') };
          // A source this file holds at one side only (moved, renamed, deleted, added): its values at the
          // other side come from elsewhere or from nowhere (Flux then fails), never from the defaults.
          const gone = !atBase.some((s) => s.id === id) ? 'base' : !atHead.some((s) => s.id === id) ? 'head' : null;
          if (gone !== null) {
            out.notFollowed.push(
              notFed(where, moved, `${id} is not in ${path} at ${gone}, so the values ${file} gets there are not known`),
            );
            continue;
          }
          // One file set by two changed sources, or applied twice: which values it gets is not followed.
          if (fed.has(file) && fed.get(file) !== id) {
            out.notFollowed.push(notFed(where, moved, `${file} is set by more than one changed source of variables`));
            continue;
          }
          fed.set(file, id);
          const unsupported = unsupportedRef(text, moved, varsOf(id, before), varsOf(id, after));
          if (unsupported !== null) {
            out.notFollowed.push(notFed(where, moved, `${file} reads ${unsupported}, which is not followed`));
            continue;
          }
          const own: Vars = id === `Kustomization/${k.name}` ? new Map<string, { raw: string; value: string | null }>() : k.substitute;
          const sides = {
            base: detectFile(file, substitute(text, withOwn(varsOf(id, before), own)), parsers),
            head: detectFile(file, substitute(text, withOwn(varsOf(id, after), own)), parsers),
          };
          // What a reader names not followed in the file as substituted at head, and not alike at base
          // (its fingerprint changed: a bound of a group whose class is elsewhere): the file is not
          // changed, so it lands on the changed variable.
          const atBaseNotes = new Set((sides.base.notFollowed ?? []).map(unfollowedKey));
          const raised = (sides.head.notFollowed ?? []).filter((n) => !atBaseNotes.has(unfollowedKey(n)));
          if (raised.length > 0) {
            const needs = raised[0]?.needs;
            const named = `${file} is given it in ${raised.map((n) => n.subject).join(', ')}, which is not followed`;
            out.notFollowed.push(notFed(where, moved, needs === undefined ? named : `${named} (${needs})`));
            continue;
          }
          const found = (r: ParseResult) => r.decls.length + (r.unresolved?.length ?? 0) > 0;
          if (!found(sides.base) && !found(sides.head)) {
            // Set in a GPU field of a form no parser reads: the floor's rule, on the line it sets.
            // The field, not the variable's name: `replicas: ${gpu_workers}` sets no GPU field.
            const line = refLines(text, moved).find((l) => namesGpu(l.replace(ANY_REF, '')));
            if (line !== undefined) out.notFollowed.push(notFed(where, moved, `${file} sets GPUs with it (\`${line.trim()}\`)`));
            // Or anywhere in an object of GPUs no parser reads (a DRA claim's `count` beside its device class):
            // the floor would not let that file pass changed, so a value it is given may not either.
            else if (unreadGpuNames(file, substitute(text, withOwn(varsOf(id, after), own))))
              out.notFollowed.push(notFed(where, moved, `${file} names GPUs no reader accounts for, and the variable sets a value in it`));
            continue;
          }
          counted = true;
          // An object it sets whose GPU count no reader can tell: that file is not changed, so nothing
          // else lands the unknown count on the pull request; it lands on the changed variable.
          const unknown = (sides.head.unresolved ?? []).filter((u) => u.unboundedBy === undefined);
          if (unknown.length > 0)
            out.notFollowed.push(
              notFed(where, moved, `${file} is given it in ${unknown.map((u) => u.name).join(', ')}, whose GPU count is not known`),
            );
          for (const side of ['base', 'head'] as const) {
            out[side].decls.push(...sides[side].decls);
            out[side].unresolved?.push(...(sides[side].unresolved ?? []));
            if (side === 'head') out.head.diagnostics.push(...sides.head.diagnostics);
          }
        }
      }
    }
    // Read as a whole where what it changed was counted, or where each GPU-named variable was found where it is used.
    const everyNamed = [...named].every(([id, keys]) => [...keys].every((key) => seen.has(`${id} ${key}`)));
    if (everyNamed && (counted || named.size > 0)) out.followed.push(path);
  }
  return out;
}

export function newBudget(): Budget {
  return { reads: MAX_READS, files: MAX_FILES };
}

export function empty(): ParseResult {
  return { decls: [], diagnostics: [], unresolved: [] };
}

function notFed(where: { file: string; line: number | null }, keys: ReadonlySet<string>, needs: string): NotFollowed {
  return { ...where, reason: 'gitops-variables', subject: [...keys].join(', '), needs, inputs: [...keys] };
}

/** The sources of Flux variables a file declares: ConfigMaps, Secrets, and Kustomizations' `substitute`. */
export function sources(text: string | null): Source[] {
  if (text === null) return [];
  const out: Source[] = [];
  for (const obj of loadObjects(text).objects) {
    const kind = jsonText(obj.kind);
    const name = isObject(obj.metadata) ? jsonText(obj.metadata.name) : '';
    if (jsonText(obj.apiVersion) === 'v1' && (kind === 'ConfigMap' || kind === 'Secret')) {
      const vars: Vars = new Map();
      for (const [key, value] of Object.entries(isObject(obj.data) ? obj.data : {}))
        vars.set(key, held(jsonText(value), kind === 'Secret'));
      for (const [key, value] of Object.entries(isObject(obj.stringData) ? obj.stringData : {}))
        vars.set(key, held(jsonText(value), false));
      out.push({ id: `${kind}/${name}`, vars });
    } else if (isFlux(obj)) {
      out.push({ id: `Kustomization/${name}`, vars: substituteOf(obj) });
    }
  }
  return out;
}

/** A value as substituted: a Secret's `data` decoded; an encrypted one (SOPS) is none the review can know. */
function held(raw: string, base64: boolean): { raw: string; value: string | null } {
  if (/^ENC\[/.test(raw)) return { raw, value: null };
  if (!base64) return { raw, value: raw };
  const ok = /^[A-Za-z0-9+/]*={0,2}$/.test(raw.trim());
  return { raw, value: ok ? Buffer.from(raw.trim(), 'base64').toString('utf8') : null };
}

export function isFlux(obj: JsonObject): boolean {
  return jsonText(obj.apiVersion).startsWith(FLUX_GROUP) && jsonText(obj.kind) === 'Kustomization';
}

function substituteOf(obj: JsonObject): Vars {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const post = isObject(spec.postBuild) ? spec.postBuild : {};
  return new Map(Object.entries(isObject(post.substitute) ? post.substitute : {}).map(([k, v]) => [k, held(jsonText(v), false)]));
}

/** The variables whose values differ between the sides, by source. */
function changedVariables(before: readonly Source[], after: readonly Source[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const id of new Set([...before, ...after].map((s) => s.id))) {
    const [b, a] = [merged(before, id), merged(after, id)];
    const keys = new Set([...b.keys(), ...a.keys()].filter((k) => b.get(k)?.raw !== a.get(k)?.raw));
    if (keys.size > 0) out.set(id, keys);
  }
  return out;
}

function merged(list: readonly Source[], id: string): Vars {
  return new Map(list.filter((s) => s.id === id).flatMap((s) => [...s.vars]));
}

function varsOf(id: string, text: string | null): Vars {
  return merged(sources(text), id);
}

/** The Kustomization's own `substitute` takes precedence over what `substituteFrom` gives (Flux's order). */
export function withOwn(from: Vars, own: Vars): Vars {
  return new Map([...from, ...own]);
}

/** Whether the file names GPUs that nothing accounts for (the floor's rule on a changed file). */
function unreadGpuNames(path: string, text: string): boolean {
  return accountSignals(path, text).signals.some((s) => s.by === null);
}

/** The variables of `keys` the text references. */
function referenced(text: string, keys: ReadonlySet<string>): string[] {
  return [...new Set([...text.matchAll(ANY_REF)].map((m) => m[1] ?? '').filter((k) => keys.has(k)))];
}

/** The variables, by source, whose name or value names a GPU (the floor's signals). */
function gpuNamed(list: readonly Source[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of list)
    for (const [key, v] of s.vars) if (isGpuKey(key) || namesGpu(v.raw)) out.set(s.id, new Set([...(out.get(s.id) ?? []), key]));
  return out;
}

function refLines(text: string, keys: ReadonlySet<string>): string[] {
  return text.split('\n').filter((l) => [...l.matchAll(ANY_REF)].some((m) => keys.has(m[1] ?? '')));
}

/** A reference to a changed variable the substitution here does not make, or one whose value is unreadable. */
function unsupportedRef(text: string, keys: ReadonlySet<string>, before: Vars, after: Vars): string | null {
  for (const m of text.matchAll(ANY_REF)) {
    const name = m[1] ?? '';
    if (!keys.has(name)) continue;
    if (!/^(?::?[-=][^}]*)?$/.test(m[2] ?? '')) return `\`${m[0]}\``;
    if (before.get(name)?.value === null || after.get(name)?.value === null) return `\`${m[0]}\` from an encrypted value`;
  }
  return null;
}

/** Flux's substitution of the forms `${v}`, `${v:=d}`, `${v:-d}` (and without the colon); unknown variables are left. */
export function substitute(text: string, vars: Vars): string {
  return text.replace(SIMPLE, (whole, name: string, op: string | undefined, def: string | undefined) => {
    const held = vars.get(name);
    if (held?.value === null) return whole;
    const value = held?.value;
    if (value !== undefined && !(op?.startsWith(':') === true && value === '')) return value;
    return op !== undefined ? (def ?? '') : whole;
  });
}

/** The Flux Kustomizations the kustomization of the file's folder applies, with what patches there add. */
export async function kustomizationsNear(
  path: string,
  io: FluxVariablesIo,
  budget: Budget,
  side: TreeReader = io.head,
): Promise<FluxKustomization[]> {
  const found = new Map<string, FluxKustomization>();
  const add = (obj: JsonObject) => {
    const name = isObject(obj.metadata) ? jsonText(obj.metadata.name) : '';
    const spec = isObject(obj.spec) ? obj.spec : {};
    const post = isObject(spec.postBuild) ? spec.postBuild : {};
    const entry: FluxKustomization = found.get(name) ?? { name, path: null, components: [], from: new Set(), substitute: new Map() };
    if (typeof spec.path === 'string') entry.path = resolvePath('', spec.path);
    if (Array.isArray(spec.components)) entry.components.push(...spec.components.map(jsonText));
    for (const ref of Array.isArray(post.substituteFrom) ? post.substituteFrom : [])
      if (isObject(ref)) entry.from.add(`${jsonText(ref.kind)}/${jsonText(ref.name)}`);
    for (const [k, v] of substituteOf(obj)) entry.substitute.set(k, v);
    found.set(name, entry);
  };
  for (const file of await buildFiles(dirOf(path), io, budget, [path], side)) {
    if (--budget.files < 0) break;
    const text = await side.read(file);
    if (text !== null) for (const obj of loadObjects(text).objects) if (isFlux(obj)) add(obj);
  }
  return [...found.values()].filter((k) => k.path !== null);
}

/** The files a Flux Kustomization applies: its path's build, and its components (relative to the path). */
export async function appliedFiles(
  k: FluxKustomization,
  io: FluxVariablesIo,
  budget: Budget,
  side: TreeReader = io.head,
): Promise<string[]> {
  const root = k.path ?? '';
  const components = k.components.map((c) => resolvePath(root, c)).filter((c): c is string => c !== null);
  const out: string[] = [];
  for (const dir of [root, ...components]) out.push(...(await buildFiles(dir, io, budget, [], side)));
  const files = [...new Set(out)];
  const taken = files.slice(0, Math.max(0, budget.files));
  budget.files -= taken.length;
  return taken;
}

/**
 * The files a build of `dir` reads: its kustomization's resources, components and patches, and
 * theirs; a folder without a kustomization gives its YAML files, as Flux generates one for it.
 */
export async function buildFiles(
  dir: string,
  io: FluxVariablesIo,
  budget: Budget,
  seed: readonly string[],
  side: TreeReader,
): Promise<string[]> {
  const out = new Set<string>(seed);
  const queue = [dir];
  const seenDirs = new Set<string>();
  while (queue.length > 0 && budget.reads > 0) {
    const d = queue.shift() as string;
    if (seenDirs.has(d)) continue;
    seenDirs.add(d);
    const listing = await io.list(d);
    const kfile = KUSTOMIZATION_NAMES.map((n) => (d === '' ? n : `${d}/${n}`)).find((p) => listing.includes(p));
    if (kfile === undefined) {
      for (const p of listing.filter((f) => /\.ya?ml$/i.test(f))) out.add(p);
      continue;
    }
    budget.reads--;
    const text = await side.read(kfile);
    const read = text === null ? null : readKustomization(kfile, text);
    if (read === null || !read.ok) continue;
    for (const ref of kustomizationReferences(read.value)) {
      if (isKustomizationPath(ref)) queue.push(dirOf(ref));
      else out.add(ref);
    }
  }
  return [...out];
}

function lineOfKey(text: string, key: string): number | null {
  const escaped = escapeRegex(key);
  const m = new RegExp(`^[ \\t]*["']?${escaped}["']?[ \\t]*:`, 'm').exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}
