import type { ObjectAddress } from '../../domain/index.js';
import { callAddress, inModule, mapAddress, movesIn, withMoves } from './addresses.js';
import type { SourceFile, Unfollowed } from '../parser.js';
import { fileReferences } from './templates.js';
import { namesGpu } from '../kit/gpu-signal.js';
import type { Scope } from './expr-eval.js';
import { inputsFingerprint } from './inputs-fingerprint.js';
import type { Locator } from './locator.js';
import { isTfFile, locatorFor } from './tf-json.js';
import { asRecord } from './module-scope.js';
import { parseModule, parseTerraformSet } from './terraform-parser.js';
import { copiesOf } from './copies.js';
import { ownSource } from './module-source.js';
import type { OwnSource } from './module-source.js';
import { hcl, lenient } from './call-arguments.js';
import { GIVEN_TFVARS, dirOf, join, readFiles, resolvePath } from './module-files.js';
import { MAX_READS, withoutCalls } from './module-findings.js';
import type { CallReading, Collected, FollowIo, Readings } from './module-findings.js';

/*
 * Reading a module of this repository as a call (or a variable file) gives it values: its local
 * calls read through in turn, each copy of a `count` or `for_each` call on its own.
 */

// Arguments of a module block that are Terraform's, not the module's variables.
const META = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);
// Copies of a module (count, for_each) read one by one; a longer list is not followed.
const MAX_INSTANCES = 64;
const isTf = isTfFile;

// Modules calling modules: followed this deep.
const MAX_DEPTH = 3;

/** `source = "./…"` or `"../…"`: what a local module call has, in some file of the set. */
const LOCAL_SOURCE = /(?:\bsource\s*=|"source"\s*:)\s*"\.\.?\//;

/** The folder a call's module is in, when it is in this repository: a relative path, or a URL of the repository itself. */
function moduleFolder(source: string, dir: string, repositories: readonly string[]): { dir: string; own: OwnSource | null } | null {
  if (source.startsWith('./') || source.startsWith('../')) {
    const resolved = resolvePath(dir, source);
    return resolved === null ? null : { dir: resolved, own: null };
  }
  const own = ownSource(source, repositories);
  return own === null ? null : { dir: own.dir, own };
}

/** A set that names a module of this repository: read again here only then (a megabyte of HCL holds the event loop for seconds). */
function callsOwnModules(files: readonly SourceFile[], repositories: readonly string[]): boolean {
  const names = repositories.map((r) => r.slice(r.indexOf('/') + 1));
  return files.some((f) => isTf(f.path) && (LOCAL_SOURCE.test(f.text) || names.some((n) => f.text.toLowerCase().includes(n))));
}

/**
 * The local module calls of a set of files (a module and the variable file it is given), each
 * read through its module: the call's arguments bound to the module's variables (as a variable
 * file would set them), once per `count` or `for_each` instance, and the modules it calls in turn.
 * A call that cannot be read (its module is missing, its instances unknown) is left out, and so
 * keeps its "not followed" note.
 */
export async function readCalls(
  io: FollowIo,
  side: 'base' | 'head',
  dir: string,
  files: readonly SourceFile[],
  budget: Readings,
  depth = 0,
): Promise<CallReading[]> {
  const repositories = io.repositories ?? [];
  if (!callsOwnModules(files, repositories)) return [];
  const { parsed, scope } = parseModule(files, budget.budget);
  // The caller's `moved` blocks (`module.a` → `module.b`) reach into what its calls declare.
  const moves = movesIn(parsed.filter((f) => isTf(f.path)).map((f) => f.body));
  const out: CallReading[] = [];
  for (const f of parsed) {
    if (!isTf(f.path) || f.body.module === undefined) continue;
    let loc: Locator | null = null;
    for (const [label, blocks] of Object.entries(asRecord(f.body.module))) {
      if (!Array.isArray(blocks)) continue;
      const raw = asRecord(blocks[blocks.length - 1]);
      const source = raw.source;
      if (typeof source !== 'string') continue;
      const folder = moduleFolder(source, dir, repositories);
      if (folder === null) continue;
      const moduleDir = folder.dir;
      const moduleFiles = (await io.list(moduleDir)).filter((p) => dirOf(p) === moduleDir && isTf(p));
      const instances = instancesOf(raw, scope, label);
      if (moduleFiles.length === 0) continue;
      loc ??= locatorFor(f.path, f.text);
      const line = loc.path(loc.file(), [['module', label]])?.line ?? 1;
      if (instances === null || instances.length > budget.left) {
        // The module is here, but its copies cannot be read one by one: say so, unless what it is given did not change.
        const inputs = [raw.for_each === undefined ? (raw.count === undefined ? 'instances' : 'count') : 'for_each'];
        const note: Unfollowed = { file: f.path, line, reason: 'local-module', subject: `module.${label}`, needs: source, inputs };
        const found: Collected = {
          decls: [],
          diagnostics: [],
          unresolved: [],
          notFollowed: [{ ...note, fingerprint: inputsFingerprint(raw, scope) }],
        };
        out.push({ file: f.path, label, line, source, moduleDir, ref: folder.own?.ref ?? null, found, skipped: true });
        continue;
      }
      budget.left -= instances.length;
      const texts = await readFiles(io, side, moduleFiles);
      const found: Collected = { decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], within: [] };
      for (const inst of instances) {
        const args: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(raw)) if (!META.has(name)) args[name] = value;
        const r = await readGiven(io, side, moduleDir, texts, args, inst.scope, budget, depth);
        const named = (n: string) => (inst.key === null ? n : `${n} [${inst.key}]`);
        const placed = <T extends { name: string; address?: ObjectAddress }>(x: T): T =>
          mapAddress({ ...x, name: named(x.name) }, (a) => withMoves(inModule(a, inst.at), moves));
        found.decls.push(...r.decls.map(placed));
        found.unresolved.push(...r.unresolved.map(placed));
        found.diagnostics.push(...r.diagnostics);
        found.supersedes?.push(...(r.supersedes ?? []));
        found.within?.push(...(r.within ?? []));
        // An object the readers left unread in the module is raised when what the call gives changed.
        const given = inputsFingerprint(raw, scope);
        found.notFollowed.push(
          ...r.notFollowed.map((n) =>
            n.subject === UNREAD_MANIFEST
              ? { ...n, subject: `module.${label}`, needs: source, inputs: Object.keys(args).sort(), fingerprint: given }
              : n,
          ),
        );
      }
      out.push({ file: f.path, label, line, source, moduleDir, ref: folder.own?.ref ?? null, found });
    }
  }
  return out;
}

/**
 * A module's files read as a call gives them: each argument evaluated in the caller's `scope` and
 * handed over as a variable file would set it, and the module's own local calls read in turn.
 */
async function readGiven(
  io: FollowIo,
  side: 'base' | 'head',
  moduleDir: string,
  texts: readonly SourceFile[],
  args: Record<string, unknown>,
  scope: Scope,
  budget: Readings,
  depth: number,
): Promise<Collected> {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const v = lenient(value, scope);
    if (v !== undefined) lines.push(`${name} = ${hcl(v)}`);
  }
  const given = [...texts, { path: join(moduleDir, GIVEN_TFVARS), text: `${lines.join('\n')}\n` }];
  const inner = depth + 1 < MAX_DEPTH ? await readCalls(io, side, moduleDir, given, budget, depth + 1) : [];
  const found: Collected = { decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], within: [] };
  for (const c of inner) if (!c.skipped) found.within?.push(c.moduleDir, ...(c.found.within ?? []));
  const manifests = await readManifests(io, side, given);
  for (const r of [withoutCalls(parseTerraformSet(given, budget.budget), inner), ...manifests, ...inner.map((c) => c.found)]) {
    found.decls.push(...r.decls);
    found.unresolved.push(...r.unresolved);
    found.diagnostics.push(...r.diagnostics);
    found.notFollowed.push(...r.notFollowed);
    found.supersedes?.push(...(r.supersedes ?? []));
  }
  return found;
}

/** The Kubernetes objects a module declares given its values, with the templates it renders. */
async function readManifests(io: FollowIo, side: 'base' | 'head', given: readonly SourceFile[]): Promise<Collected[]> {
  const parseSet = io.manifests?.parseSet?.bind(io.manifests);
  if (parseSet === undefined || !given.some((f) => io.manifests?.mightContain(f.path, f.text))) return [];
  const files = [...given];
  for (const ref of [...new Set(given.flatMap((f) => fileReferences(f)))]) {
    const text = await io[side].read(ref);
    if (text !== null && !files.some((f) => f.path === ref)) files.push({ path: ref, text });
  }
  const r = parseSet(files);
  const notFollowed = [...(r.notFollowed ?? [])];
  // An object the readers leave unread (a heredoc with `${var.x}` in it) is the floor's when its
  // file changes; read through a call it is not followed, raised when what the call gives changes.
  const found = new Set([...r.decls, ...(r.unresolved ?? []), ...notFollowed].map((d) => d.file));
  for (const f of given)
    if (io.manifests?.mightContain(f.path, f.text) && VARIABLE.test(f.text) && namesGpu(f.text) && !found.has(f.path))
      notFollowed.push({ file: f.path, line: null, reason: 'local-module', subject: UNREAD_MANIFEST, fingerprint: '' });
  return [{ decls: r.decls, diagnostics: r.diagnostics, unresolved: r.unresolved ?? [], notFollowed, supersedes: r.supersedes ?? [] }];
}

const VARIABLE = /\bvar\.[A-Za-z_]/;
// The subject of such a note until the call that reads the module names it.
const UNREAD_MANIFEST = '~unread manifest';

/** What a module of this repository declares given `args` (a Terragrunt unit's inputs); null when its folder holds no Terraform. */
export async function readModuleCall(
  io: FollowIo,
  side: 'base' | 'head',
  moduleDir: string,
  args: Record<string, unknown>,
  scope: Scope,
): Promise<Collected | null> {
  const moduleFiles = (await io.list(moduleDir)).filter((p) => dirOf(p) === moduleDir && isTf(p));
  if (moduleFiles.length === 0) return null;
  const texts = await readFiles(io, side, moduleFiles);
  if (texts.length === 0) return null;
  return readGiven(io, side, moduleDir, texts, args, scope, { left: MAX_READS, budget: scope.budget }, 0);
}

/** The instances of a module call: one, or one per `count` index or `for_each` key; null when unknown or too many. */
function instancesOf(raw: Record<string, unknown>, scope: Scope, label: string): { key: string | null; at: string; scope: Scope }[] | null {
  const copies = copiesOf(raw, scope);
  if (copies === null) return [{ key: null, at: callAddress(label, null), scope }];
  if ('culprit' in copies || copies.length > MAX_INSTANCES) return null;
  // One copy by count is the module as it is; copies by key are named by it.
  const single = raw.for_each === undefined && copies.length === 1;
  return copies.map((c) => ({
    key: single ? null : typeof c.key === 'string' ? c.key : String(c.key),
    // Terraform's own address: `module.a[0]` even for one copy by count.
    at: callAddress(label, c.key),
    scope: c.scope,
  }));
}
