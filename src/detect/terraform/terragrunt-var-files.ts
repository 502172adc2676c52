import type { Scope } from './expr-eval.js';
import { asRecord } from './module-scope.js';
import { parseTerraformFile } from './tf-json.js';
import { evalPath } from './terragrunt-paths.js';
import type { PathFs } from './terragrunt-paths.js';

/*
 * Terragrunt's `extra_arguments` blocks hand the module variable files (`required_var_files`,
 * `optional_var_files`, `arguments = ["-var-file=…"]`) on the commands that take variables. A
 * `-var-file` beats the inputs Terragrunt passes as TF_VAR_ variables, so their values go over
 * the unit's inputs, the later file over the earlier.
 */

/** One unit's extra_arguments blocks, each with the folder its paths are evaluated from (an included file's are the unit's). */
export interface ExtraArguments {
  label: string;
  block: Record<string, unknown>;
  fs: PathFs;
  scope: Scope;
}

/** The `extra_arguments` blocks of a config's `terraform` blocks, by label. */
export function extraArgumentsOf(body: Record<string, unknown>, fs: PathFs, scope: Scope): ExtraArguments[] {
  const out: ExtraArguments[] = [];
  for (const t of Array.isArray(body.terraform) ? body.terraform : []) {
    for (const [label, blocks] of Object.entries(asRecord(asRecord(t).extra_arguments))) {
      const list = Array.isArray(blocks) ? blocks : [blocks];
      out.push({ label, block: asRecord(list[list.length - 1]), fs, scope });
    }
  }
  return out;
}

/** Commands a plan or an apply runs: a block for other commands only (`init`) hands them nothing. */
function onPlanOrApply(commands: unknown): boolean {
  if (!Array.isArray(commands)) return true;
  return commands.some((c) => c === 'plan' || c === 'apply' || typeof c !== 'string' || c.includes('${'));
}

/** A list attribute as written: a list of strings; null when it is an expression (a `concat`, a local). */
function stringList(raw: unknown): string[] | null {
  if (raw === undefined) return [];
  return Array.isArray(raw) && raw.every((x) => typeof x === 'string') ? raw : null;
}

export type VarFileValues = { values: Record<string, unknown>; files: string[] } | { culprit: string; subject: string; needs: string };

/**
 * The values the unit's variable files give, merged in Terragrunt's order (`arguments`, then the
 * required files, then the optional ones that exist); a culprit when a file cannot be told or read.
 * Blocks of an included file come first; the unit's own replace those of the same label.
 */
export async function varFileValues(blocks: readonly ExtraArguments[]): Promise<VarFileValues> {
  const byLabel = new Map<string, ExtraArguments>();
  for (const b of blocks) byLabel.set(b.label, b);
  const values: Record<string, unknown> = {};
  const files: string[] = [];
  for (const { label, block, fs, scope } of byLabel.values()) {
    if (!onPlanOrApply(block.commands)) continue;
    const subject = `extra_arguments.${label}`;
    const args = stringList(block.arguments);
    const required = stringList(block.required_var_files);
    const optional = stringList(block.optional_var_files);
    if (args === null || required === null || optional === null)
      return { culprit: 'its variable files are an expression that is not followed', subject, needs: subject };
    const named = args.flatMap((a) => /^-var-file=(.+)$/.exec(a)?.[1] ?? []);
    for (const [raw, needed] of [...[...named, ...required].map((r) => [r, true] as const), ...optional.map((r) => [r, false] as const)]) {
      // A bare relative path is taken from the copy of the module Terragrunt runs in: not this tree.
      if (!raw.includes('${') && !raw.startsWith('/'))
        return { culprit: 'a relative path is taken from the copy of the module Terragrunt runs in', subject, needs: raw };
      const path = await evalPath(raw, fs, scope);
      if ('culprit' in path) return { culprit: `its path uses ${path.culprit}`, subject, needs: raw };
      const text = await fs.reader.read(path.path);
      if (text === null) {
        if (!needed) continue;
        return { culprit: 'that file is not in the repository at this side', subject, needs: path.path };
      }
      const parsed = parseTerraformFile(path.path, text);
      if (!parsed.ok) return { culprit: `it is not valid HCL (${parsed.error.message})`, subject, needs: path.path };
      Object.assign(values, parsed.value);
      files.push(path.path);
    }
  }
  return { values, files };
}
