import type { CapacityDecl, Diagnostic, ObjectAddress } from '../../domain/index.js';
import type { Unfollowed, UnresolvedDecl } from '../parser.js';
import { mapAddress } from './addresses.js';
import { readCalls } from './module-reading.js';
import { dirOf, join, readFiles } from './module-files.js';
import { place, withoutCalls } from './module-findings.js';
import type { Budgets, FollowedModules, FollowIo } from './module-findings.js';
import { isAutoTfvars } from './module-scope.js';
import { declaredIn, rootVarFiles } from './root-var-files.js';
import { parseTerraformSet } from './terraform-parser.js';
import { isTfFile } from './tf-json.js';

/** The name a variable file of a set is read under: an auto file sorting after the root's own, as `-var-file` wins over them. */
const given = (root: string, path: string, i: number) => join(root, `~given-${i}.auto.tfvars${path.endsWith('.json') ? '.json' : ''}`);

/**
 * Changed root modules applied with variable files kept elsewhere (`terraform/gcp` with
 * `-var-file projects/<cluster>.tfvars`, root-var-files.ts), read once per set of them, as each
 * application plans: the pools a value of those files sizes are counted with it, not with the
 * variables' defaults. With several sets a pool is named by its set (`gpu [projects/a.tfvars]`).
 * A root past the bounds of that search is not followed. Returns the roots so read: their
 * Terraform parser's own reading, with the defaults only, is replaced by these.
 */
export async function followRoots(changed: readonly string[], io: FollowIo, result: FollowedModules, budgets: Budgets): Promise<string[]> {
  const roots: string[] = [];
  for (const root of [...new Set(changed.filter(isTfFile).map(dirOf))].sort()) {
    const own = (await io.list(root)).filter((p) => dirOf(p) === root && (isTfFile(p) || isAutoTfvars(p)));
    const texts = [...(await readFiles(io, 'head', own.filter(isTfFile))), ...(await readFiles(io, 'base', own.filter(isTfFile)))];
    if (!texts.some((f) => /\bvariable\b/.test(f.text))) continue;
    const found = await rootVarFiles(root, declaredIn(texts.map((f) => f.text)), io);
    if (found.past !== null) {
      for (const file of changed.filter((p) => dirOf(p) === root && isTfFile(p)))
        result.head.notFollowed.push({ file, line: null, reason: 'unscanned', subject: root || file, needs: found.past });
      continue;
    }
    if (found.sets.length === 0) continue;
    const named = (set: readonly string[]) => (found.sets.length > 1 ? (n: string) => `${n} [${set.join(' + ')}]` : (n: string) => n);
    for (const side of ['base', 'head'] as const) {
      const files = await readFiles(io, side, own);
      for (const set of found.sets) {
        const values = await readFiles(io, side, set);
        // A set missing at this side is an application that does not exist there.
        if (values.length < set.length) continue;
        const real = new Map(set.map((p, i) => [given(root, p, i), p]));
        const at = (file: string) => real.get(file) ?? file;
        const read = [...files, ...values.map((v, i) => ({ path: given(root, v.path, i), text: v.text }))];
        const calls = await readCalls(io, side, root, read, budgets[side]);
        const mine = withoutCalls(parseTerraformSet(read, budgets[side].budget), calls);
        const label = named(set);
        const out = result[side];
        // Each application is its own set of resources: its addresses are labelled as its names are.
        const address = (a: ObjectAddress): ObjectAddress => ({ at: label(a.at), formerly: a.formerly.map(label) });
        out.decls.push(...mine.decls.map((d): CapacityDecl => mapAddress({ ...d, file: at(d.file), name: label(d.name) }, address)));
        out.unresolved.push(
          ...mine.unresolved.map((u): UnresolvedDecl => mapAddress({ ...u, file: at(u.file), name: label(u.name) }, address)),
        );
        out.diagnostics.push(...mine.diagnostics.map((d): Diagnostic => ({ ...d, file: at(d.file) })));
        out.notFollowed.push(...mine.notFollowed.map((n): Unfollowed => ({ ...n, file: at(n.file) })));
        for (const c of calls) {
          if (!c.skipped) result.modules.push(c.moduleDir);
          place(out, c.found, c.file, c.line, label, `module.${c.label} (${c.source})`);
        }
      }
    }
    for (const p of found.sets.flat()) {
      if (!changed.includes(p)) continue;
      result.tfvars.push(p);
      result.tfvarsModules.set(p, root);
    }
    roots.push(root);
  }
  return roots;
}
