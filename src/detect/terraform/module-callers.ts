import { dirOf } from '../kit/paths.js';
import type { CoverageIo } from '../side-readers.js';
import { ownSource } from './module-source.js';
import { isTfFile } from './tf-json.js';
import { mergedModuleSources } from './merged-module-sources.js';
import { isOverrideFile } from './override-files.js';

/** Folders above a module searched for its callers: `modules/gpu` is called from the root, `envs/prod`. */
const MAX_UP = 3;
/** Folders below each of those searched too: `envs/prod/main.tf` calls `../../modules/gpu`. */
const MAX_DOWN = 2;
/** Folders looked into per module, at most: past that, callers further away are not found. */
const MAX_FOLDERS = 48;
/**
 * Wrapping modules followed outwards, at most: a module called by a wrapper (or by a wrapper of a
 * wrapper) is read from the root above them. Module reading follows calls 3 deep
 * (module-reading.ts): a root and two wrappers are as far as its reading reaches the changed module.
 */
const MAX_WRAPS = 2;

/** What the search reads: listings of files and folders, and the repository's own names. */
export interface CallerIo extends CoverageIo {
  dirs?: (dir: string) => Promise<string[]>;
  repositories?: readonly string[];
}

const SOURCE = /(?:\bsource\s*=|"source"\s*:)\s*"([^"]+)"/g;

/** `a/b` + `../c` → `a/c`; null when it leaves the repository. */
function joinPath(dir: string, rel: string): string | null {
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(step);
  }
  return out.join('/');
}

/** The folder a module source names in this repository, or null. */
function sourceDir(source: string, dir: string, repositories: readonly string[]): string | null {
  if (source.startsWith('./') || source.startsWith('../')) return joinPath(dir, source);
  return ownSource(source, repositories)?.dir ?? null;
}

/**
 * The folders near a module of this repository whose Terraform calls it (by a relative path or by
 * the repository's own URL), as a root module that applies it would: the module's own variables
 * without defaults have their values there. Searched up to MAX_UP folders above it and MAX_DOWN
 * below each of those (MAX_FOLDERS in all), at the head side; a caller further away is not found.
 */
export async function callersOf(moduleDir: string, io: CallerIo): Promise<string[]> {
  const repositories = io.repositories ?? [];
  const candidates: string[] = [];
  const add = (d: string) => {
    if (d !== moduleDir && !candidates.includes(d) && candidates.length < MAX_FOLDERS) candidates.push(d);
  };
  const ancestors: string[] = [];
  for (let up = 1, at = moduleDir; up <= MAX_UP && at !== ''; up++) {
    at = dirOf(at);
    ancestors.push(at);
  }
  for (const a of ancestors) add(a);
  if (io.dirs) {
    let level = ancestors;
    for (let down = 1; down <= MAX_DOWN && candidates.length < MAX_FOLDERS; down++) {
      const next: string[] = [];
      for (const d of level) for (const sub of await io.dirs(d)) if (!sub.startsWith(`${moduleDir}/`)) next.push(sub);
      for (const d of next) add(d);
      level = next;
    }
  }
  const out: string[] = [];
  for (const dir of candidates) if (await calls(dir, moduleDir, io, repositories)) out.push(dir);
  return out;
}

/**
 * The folder calls the module: a source of one of its files names it, or, where the folder has
 * override files, a call's source as Terraform merges them does (an override may point a call
 * elsewhere, or at the module).
 */
async function calls(dir: string, moduleDir: string, io: CallerIo, repositories: readonly string[]): Promise<boolean> {
  const paths = (await io.list(dir)).filter((p) => dirOf(p) === dir && isTfFile(p));
  if (paths.some(isOverrideFile)) {
    const files = await Promise.all(paths.map(async (path) => ({ path, text: (await io.head.read(path)) ?? '' })));
    return [...mergedModuleSources(files).values()].some((s) => sourceDir(s, dir, repositories) === moduleDir);
  }
  for (const path of paths) {
    const text = (await io.head.read(path)) ?? '';
    if (!/\bmodule\b/.test(text)) continue;
    if ([...text.matchAll(SOURCE)].some((m) => sourceDir(m[1] ?? '', dir, repositories) === moduleDir)) return true;
  }
  return false;
}

/**
 * The callers a module is read through: a caller that is itself a module called from near it (a
 * platform team's wrapper handing its own variables down) is read through its callers in turn, as
 * the root applying both does, where the wrapper's variables have their values. A caller no one
 * calls stays: read on its own, it gives what it can.
 */
export async function outerCallersOf(
  moduleDir: string,
  io: CallerIo,
  wraps = 0,
  seen: Set<string> = new Set([moduleDir]),
): Promise<string[]> {
  const out: string[] = [];
  for (const caller of await callersOf(moduleDir, io)) {
    if (seen.has(caller)) continue;
    seen.add(caller);
    const outer = wraps < MAX_WRAPS ? await outerCallersOf(caller, io, wraps + 1, seen) : [];
    out.push(...(outer.length > 0 ? outer : [caller]));
  }
  return [...new Set(out)];
}
