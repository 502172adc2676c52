import { TerraformBudget } from './expr-budget.js';
import { isTfvarsPath } from './module-scope.js';
import { outerCallersOf } from './module-callers.js';
import { readCalls } from './module-reading.js';
import { dirOf, readFiles } from './module-files.js';
import { MAX_READS, empty, place } from './module-findings.js';
import type { Budgets, CallReading, FollowedModules, FollowIo } from './module-findings.js';
import { isTfFile } from './tf-json.js';
import { followTfvars } from './tfvars-follow.js';
import { followRoots } from './root-follow.js';

export type { FollowedModules } from './module-findings.js';

const isTf = isTfFile;

/** Local module calls in the changed Terraform directories, read through their modules. */
async function followCalls(
  changed: readonly string[],
  io: FollowIo,
  result: FollowedModules,
  budgets: Budgets,
  callers: readonly string[],
): Promise<void> {
  // A root read with its variable files (root-follow.ts) has had its calls read there.
  const dirs = [...new Set([...changed.filter((p) => isTf(p) || isTfvarsPath(p)).map(dirOf), ...callers])]
    .filter((d) => !result.roots.includes(d))
    .sort();
  for (const dir of dirs) {
    const listed = (await io.list(dir)).filter((p) => dirOf(p) === dir);
    const paths = [...new Set([...listed, ...changed.filter((p) => dirOf(p) === dir)])].filter((p) => isTf(p) || isTfvarsPath(p));
    const read = new Set<string>();
    const sources = { base: new Map<string, CallReading>(), head: new Map<string, CallReading>() };
    for (const side of ['base', 'head'] as const) {
      for (const c of await readCalls(io, side, dir, await readFiles(io, side, paths), budgets[side])) {
        if (!c.skipped) {
          read.add(`${c.file}\u0000${c.label}`);
          // The modules it calls in turn are counted through it too.
          result.modules.push(c.moduleDir, ...new Set(c.found.within));
        }
        sources[side].set(`${c.file}\u0000${c.label}`, c);
        place(result[side], c.found, c.file, c.line, (n) => n, `module.${c.label} (${c.source})`);
      }
    }
    // A module of this repository pinned by URL to another ref: what that ref holds is not the tree read here.
    for (const [key, c] of sources.head) {
      const before = sources.base.get(key);
      if (c.ref === null || before === undefined || before.source === c.source) continue;
      result.head.notFollowed.push({
        file: c.file,
        line: c.line,
        reason: 'remote-module',
        subject: `module.${c.label}`,
        needs: c.source,
        inputs: ['source'],
      });
    }
    for (const key of read) {
      const [file, label] = key.split('\u0000');
      result.calls.push({ file: file ?? '', subject: `module.${label ?? ''}` });
    }
  }
}

/**
 * Local module calls and free-standing variable files of the PR, each read with its module. A
 * changed module of this repository whose own reading leaves a pool's count unknown (`unknownIn`:
 * its variables have no defaults) is read through the calls near it that give them values
 * (module-callers.ts), as the root modules applying it do, through the modules wrapping it; with
 * none found it stays unknown.
 */
export async function followModules(changed: readonly string[], io: FollowIo, unknownIn: readonly string[] = []): Promise<FollowedModules> {
  const result: FollowedModules = { base: empty(), head: empty(), calls: [], tfvars: [], tfvarsModules: new Map(), modules: [], roots: [] };
  const budgets: Budgets = {
    base: { left: MAX_READS, budget: new TerraformBudget() },
    head: { left: MAX_READS, budget: new TerraformBudget() },
  };
  const callers: string[] = [];
  for (const dir of unknownIn) callers.push(...(await outerCallersOf(dir, io)));
  result.roots.push(...(await followRoots(changed, io, result, budgets)));
  await followCalls(changed, io, result, budgets, callers);
  await followTfvars(changed, io, result, budgets);
  return result;
}
