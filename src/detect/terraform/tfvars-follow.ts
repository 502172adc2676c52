import { parseTerraformFile, isTfFile } from './tf-json.js';
import { isAutoTfvars, isTfvarsPath } from './module-scope.js';
import { parseTerraformSet } from './terraform-parser.js';
import { readCalls } from './module-reading.js';
import { GIVEN_TFVARS, dirOf, join, readFiles } from './module-files.js';
import { place, withoutCalls } from './module-findings.js';
import type { Budgets, FollowedModules, FollowIo } from './module-findings.js';

const isTf = isTfFile;

/** Declared variable names of a module's files, from their text. */
function declares(texts: readonly string[], name: string): boolean {
  const safe = name.replace(/[^\w-]/g, '');
  const re = new RegExp(`\\bvariable\\s+"${safe}"`);
  // In JSON syntax: a "variable" object with the name as a key (a close enough test for a search).
  const json = new RegExp(`"${safe}"\\s*:\\s*\\{`);
  return texts.some((t) => re.test(t) || (/"variable"\s*:/.test(t) && json.test(t)));
}

// How far up a variable file looks for the module it sets: envs/<env>/x.tfvars → the root is two up.
const MAX_UP = 3;

/**
 * Variable files with no module beside them (`envs/prod/terraform.tfvars`, a stack's tfvars):
 * read with the nearest folder above that declares their variables, as `-var-file` would apply
 * them, and what that module declares is reported at the variable file.
 */
export async function followTfvars(changed: readonly string[], io: FollowIo, result: FollowedModules, budgets: Budgets): Promise<void> {
  for (const path of changed.filter(isTfvarsPath)) {
    // Read already with the changed root it is applied to (root-follow.ts).
    if (result.tfvars.includes(path)) continue;
    const dir = dirOf(path);
    if ((await io.list(dir)).some((p) => dirOf(p) === dir && isTf(p))) continue;
    const headText = (await io.head.read(path)) ?? (await io.base.read(path)) ?? '';
    const parsed = parseTerraformFile(path, headText);
    const names = parsed.ok ? Object.keys(parsed.value) : [];
    if (names.length === 0) continue;
    const found = await moduleFor(names, dir, io);
    if (found === null) continue;
    const { moduleDir, moduleFiles } = found;
    for (const side of ['base', 'head'] as const) {
      const text = await io[side].read(path);
      if (text === null) continue;
      const given = join(moduleDir, path.endsWith('.json') ? `${GIVEN_TFVARS}.json` : GIVEN_TFVARS);
      const files = [...(await readFiles(io, side, moduleFiles)), { path: given, text }];
      const calls = await readCalls(io, side, moduleDir, files, budgets[side]);
      const why = `with ${moduleDir === '' ? 'the root module' : moduleDir}`;
      for (const read of [withoutCalls(parseTerraformSet(files, budgets[side].budget), calls), ...calls.map((c) => c.found)])
        place(result[side], read, path, 1, (n) => n, why);
    }
    result.tfvars.push(path);
    result.tfvarsModules.set(path, moduleDir);
  }
}

// Folders beside the way up searched for the module a variable file sets, at most.
const MAX_SIBLINGS = 24;

/**
 * The module a free-standing variable file sets, as `-var-file` would apply it: the nearest folder
 * above that declares some of its variables (`envs/prod/terraform.tfvars` for the root module), else
 * the one folder beside that way up declaring all of them (`envs/prod.tfvars` for `terraform/`).
 * Two such folders leave it unknown: reading it with the wrong one would count the wrong pools.
 */
async function moduleFor(
  names: readonly string[],
  dir: string,
  io: FollowIo,
): Promise<{ moduleDir: string; moduleFiles: string[] } | null> {
  const moduleIn = async (at: string, all: boolean) => {
    const tf = (await io.list(at)).filter((p) => dirOf(p) === at && (isTf(p) || isAutoTfvars(p)));
    const texts = (await readFiles(io, 'head', tf.filter(isTf))).map((f) => f.text);
    const declared = all ? names.every((n) => declares(texts, n)) : names.some((n) => declares(texts, n));
    return declared ? { moduleDir: at, moduleFiles: tf } : null;
  };
  const ancestors: string[] = [];
  for (let up = 1, at = dir; up <= MAX_UP && at !== ''; up++) {
    at = dirOf(at);
    ancestors.push(at);
    const found = await moduleIn(at, false);
    if (found) return found;
  }
  if (!io.dirs) return null;
  const way = new Set([dir, ...ancestors]);
  const candidates: string[] = [];
  for (const at of [dir, ...ancestors]) {
    for (const sub of await io.dirs(at)) if (!way.has(sub) && !candidates.includes(sub)) candidates.push(sub);
  }
  const found = [];
  for (const sub of candidates.slice(0, MAX_SIBLINGS)) {
    const m = await moduleIn(sub, true);
    if (m) found.push(m);
  }
  return found.length === 1 ? (found[0] ?? null) : null;
}
