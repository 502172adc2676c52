import type { FileCoverage, NotFollowed } from '../domain/index.js';
import type { Floor } from './floor.js';
import type { CoverageIo } from './side-readers.js';
import { notFollowedInputs } from './input-files.js';
import { pairDecls } from './match-decls.js';
import type { Merged } from './merge-results.js';
import type { Unfollowed } from './parser.js';
import { dirOf } from './kit/paths.js';
import { parseHcl } from './terraform/hcl.js';

const TERRAFORM_INPUT = /\.(tf|tf\.json|tofu|tofu\.json|tfvars|tfvars\.json)$/;

export interface CoverageInput {
  /** Every path the PR changes. */
  changed: readonly string[];
  /** Changed paths some parser took and read, at either side. */
  parsed: ReadonlySet<string>;
  base: Merged;
  head: Merged;
  /** Changed files followed into what they feed (variable files read with their module). */
  followed?: readonly string[];
  /** The floor: GPU names nothing accounts for, and the files that name GPUs, all accounted for. */
  floor?: Floor;
}

/**
 * Every changed file in exactly one state. `not-followed` wins: a file that was read but hands
 * values to something the review could not follow may still change capacity, and so does one that
 * names GPUs where nothing accounts for them (the floor). What the parsers could not follow counts
 * only when it differs from the base side's (a module call handed the same inputs shapes the same
 * pools); a file that could not be read counts at head. `read`: a parser took the file, or every
 * GPU name in it is accounted for; `not-capacity`: no parser took it and it names no GPU (or it
 * is documentation, a lock file, binary: never applied).
 */
export async function fileCoverage(input: CoverageInput, io: CoverageIo): Promise<FileCoverage[]> {
  const changed = new Set(input.changed);
  const entries: NotFollowed[] = [];
  const atBase = new Set(input.base.notFollowed.map(unfollowedKey));
  const moved = await movedAtBase(input, io);
  for (const n of input.head.notFollowed) {
    if (!changed.has(n.file)) continue;
    if (n.fingerprint !== undefined && (atBase.has(unfollowedKey(n)) || (await movedHere(n, moved, io)))) continue;
    entries.push(withoutFingerprint(n));
  }
  for (const d of input.head.diagnostics) {
    if (d.severity === 'error' && changed.has(d.file)) entries.push({ file: d.file, line: d.line, reason: 'unreadable', subject: d.file });
  }
  for (const u of input.head.unresolved) {
    // A pool with no limit is read: it is unbounded, and its diagnostics say so.
    if (u.unboundedBy !== undefined || !changed.has(u.file)) continue;
    entries.push({ file: u.file, line: u.line, reason: 'count-unknown', subject: u.name });
  }
  // A pool of an unchanged file whose count is unknown, read with changed files of its module whose
  // values changed (variables, locals, tfvars): what they change in it cannot be told.
  const changedTerraform = [...changed].filter((f) => TERRAFORM_INPUT.test(f) && input.parsed.has(f));
  const valuesChanged = new Map<string, Promise<boolean>>();
  for (const u of input.head.unresolved) {
    if (u.unboundedBy !== undefined || changed.has(u.file) || !TERRAFORM_INPUT.test(u.file)) continue;
    for (const f of changedTerraform) {
      if (dirOf(f) !== dirOf(u.file)) continue;
      if (!valuesChanged.has(f)) valuesChanged.set(f, changesValues(f, io));
      if (await valuesChanged.get(f)) entries.push({ file: f, line: null, reason: 'count-unknown', subject: u.name });
    }
  }
  // A pool read through a call to a changed module of this repository, its count unknown there:
  // what the module's changed files do to it cannot be told either.
  const bodyChanged = new Map<string, Promise<boolean>>();
  for (const u of input.head.unresolved) {
    if (u.unboundedBy !== undefined || u.declaredIn === undefined || changed.has(u.file)) continue;
    for (const f of changed) {
      if (!TERRAFORM_INPUT.test(f) || dirOf(f) !== dirOf(u.declaredIn)) continue;
      if (!bodyChanged.has(f)) bodyChanged.set(f, changesBody(f, io));
      if (await bodyChanged.get(f)) entries.push({ file: f, line: null, reason: 'count-unknown', subject: u.name });
    }
  }
  for (const { before, after } of pairDecls(input.base, input.head)) {
    // Unbounded now, bounded (or absent) before: the PR lets the pool grow by any number of GPUs.
    if (after && !after.decl && after.unboundedBy !== undefined && (!before || before.decl) && changed.has(after.file)) {
      entries.push({ file: after.file, line: after.line, reason: 'count-unknown', subject: after.name });
      continue;
    }
    // Known now, unknown before: how much the PR adds cannot be told.
    if (!before || before.decl || before.unboundedBy !== undefined || !after?.decl) continue;
    const entry = { reason: 'count-unknown-before' as const, subject: after.name, inputs: [`${after.decl.gpus}`] };
    if (changed.has(after.file)) {
      entries.push({ file: after.file, line: after.line, ...entry });
      continue;
    }
    // Declared in a file the PR leaves as it was: a changed file read with it made the count known
    // (a parameter file giving it a number). The change lands on those files, its folder's first.
    const feeders = [...changed].filter((f) => input.parsed.has(f));
    const near = feeders.filter((f) => dirOf(f) === dirOf(after.file));
    for (const f of near.length > 0 ? near : feeders) entries.push({ file: f, line: null, ...entry });
  }
  const followed = new Set(input.followed ?? []);
  const declaring = new Set(
    [...input.base.decls, ...input.base.unresolved, ...input.head.decls, ...input.head.unresolved].map((x) => x.file),
  );
  entries.push(
    ...(await notFollowedInputs(
      input.changed.filter((p) => !followed.has(p)),
      io,
      declaring,
    )),
  );

  const byFile = new Map<string, NotFollowed[]>();
  for (const e of unique(entries)) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  // The floor names a file only when nothing more telling already does.
  for (const e of input.floor?.notFollowed ?? []) if (!byFile.has(e.file)) byFile.set(e.file, [e]);
  const objects = new Map<string, number>();
  for (const x of [...input.head.decls, ...input.head.unresolved]) objects.set(x.file, (objects.get(x.file) ?? 0) + 1);

  return [...changed].sort().map((file): FileCoverage => {
    const notFollowed = byFile.get(file);
    if (notFollowed) return { file, state: 'not-followed', notFollowed: notFollowed.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
    if (input.parsed.has(file) || input.floor?.named.has(file)) return { file, state: 'read', objects: objects.get(file) ?? 0 };
    return { file, state: 'not-capacity' };
  });
}

/** What a Terraform file says differs between the sides (not only its comments or layout). */
async function changesBody(file: string, io: CoverageIo): Promise<boolean> {
  const body = (text: string | null): string | null => {
    if (text === null) return JSON.stringify({});
    const hcl = parseHcl(file, text);
    return hcl.ok ? JSON.stringify(hcl.value) : null;
  };
  const [before, after] = await Promise.all([io.base.read(file), io.head.read(file)]);
  const a = body(before);
  const b = body(after);
  return a === null || b === null || a !== b;
}

/** The variables, locals (or, for tfvars, the values) a Terraform file gives its module differ between the sides. */
async function changesValues(file: string, io: CoverageIo): Promise<boolean> {
  const values = (text: string | null): string | null => {
    if (text === null) return JSON.stringify({});
    const hcl = parseHcl(file, text);
    if (!hcl.ok) return null;
    return JSON.stringify(
      /\.(?:tf|tofu)(?:\.json)?$/.test(file) ? { variable: hcl.value.variable ?? null, locals: hcl.value.locals ?? null } : hcl.value,
    );
  };
  const [before, after] = await Promise.all([io.base.read(file), io.head.read(file)]);
  const a = values(before);
  const b = values(after);
  return a === null || b === null || a !== b;
}

/** A note's key less its file's name: the same note of a file renamed within its folder. */
const movedKey = (n: Unfollowed) => JSON.stringify([dirOf(n.file), n.reason, n.subject, n.fingerprint ?? null]);

/** The keys of base notes whose files the pull request removed (or renamed): gone at head. */
async function movedAtBase(input: CoverageInput, io: CoverageIo): Promise<Set<string>> {
  const out = new Set<string>();
  const changed = new Set(input.changed);
  for (const n of input.base.notFollowed) {
    if (n.fingerprint !== undefined && changed.has(n.file) && (await io.head.read(n.file)) === null) out.add(movedKey(n));
  }
  return out;
}

/**
 * A note of a file the pull request added, given the same inputs as one of a file it removed in
 * the same folder: the file renamed (git tells a rename by a removal and an addition), what it
 * declares read the same as before. Across folders, or beside a file still there, it is new.
 */
async function movedHere(n: Unfollowed, moved: ReadonlySet<string>, io: CoverageIo): Promise<boolean> {
  return moved.has(movedKey(n)) && (await io.base.read(n.file)) === null;
}

/** A not-followed note by where, what and what it was given: alike at base and head, nothing changed. */
export function unfollowedKey(n: Unfollowed): string {
  return JSON.stringify([n.file, n.reason, n.subject, n.fingerprint ?? null]);
}

function withoutFingerprint(n: Unfollowed): NotFollowed {
  const { fingerprint: _, ...rest } = n;
  return rest;
}

function unique(entries: readonly NotFollowed[]): NotFollowed[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = JSON.stringify([e.file, e.line, e.reason, e.subject]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
