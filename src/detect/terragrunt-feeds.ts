import { resolvedSpans } from './kit/signal-scan/account.js';
import type { FileAccounting } from './kit/signal-scan/account.js';
import type { Lines } from './kit/lines.js';
import { localEntries } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { moduleFeeds, ownModuleDir, resolvePath, without } from './terraform-feeds.js';
import type { TfvarsSide } from './tfvars-feeds.js';

/** A unit's `terraform { source = "…" }`. */
const UNIT_SOURCE = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/m;
const INPUTS = /^inputs[ \t]*=[ \t]*\{/;

/**
 * The folder of this repository a unit's source names: `../…` by path (`//` marks a folder inside
 * it), or the repository's own URL (`git::https://github.com/acme/infra.git//modules/x?ref=v1`).
 */
function unitModule(file: string, text: string, repositories: readonly string[]): string | null {
  const source = UNIT_SOURCE.exec(text)?.[1];
  if (source === undefined) return null;
  if (source.startsWith('./') || source.startsWith('../'))
    return resolvePath(
      dirOf(file),
      source
        .replace(/[?#].*$/, '')
        .replace(/\/\/+/g, '/')
        .replace(/\/$/, ''),
    );
  return ownModuleDir(source, dirOf(file), repositories) ?? null;
}

/** True when a Terragrunt file calls a module of this repository (by path or its own URL) and hands it inputs. */
export function isLocalUnit(file: string, text: string, repositories: readonly string[] = []): boolean {
  return unitModule(file, text, repositories) !== null && text.split('\n').some((l) => INPUTS.test(l));
}

/**
 * What a Terragrunt unit accounts for, its `inputs` judged entry by entry: an input is accounted
 * only when the variable it sets feeds, in the unit's module, only what is read
 * (terraform-feeds.ts), as an argument of a module call is. What its includes add is theirs.
 */
export async function unitSpans(file: string, text: string, accounting: FileAccounting, side: TfvarsSide): Promise<Lines[]> {
  const spans = resolvedSpans(file, text, accounting);
  const moduleDir = unitModule(file, text, side.repositories ?? []);
  const lines = text.split('\n');
  const from = lines.findIndex((l) => INPUTS.test(l)) + 1;
  if (moduleDir === null || from === 0) return spans;
  const to = closing(lines, from);
  const block = { type: 'inputs', labels: [], from, to };
  // The unit's module is itself a call (readModuleCall reads the modules it calls one level less deep).
  const feeds = await moduleFeeds(moduleDir, side, side.cache, undefined, 1);
  const fed = localEntries(text, block).filter((e) => feeds.variableFed(e.name));
  return [...without(spans, [block]), { from, to: from }, { from: to, to }, ...fed];
}

/** The line that closes what opens on line `from` (1-based), by brackets outside strings and comments. */
function closing(lines: readonly string[], from: number): number {
  let depth = 0;
  for (let n = from; n <= lines.length; n++) {
    const line = (lines[n - 1] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(?:#|\/\/).*$/, '');
    for (const c of line) {
      if (c === '{' || c === '[' || c === '(') depth++;
      else if (c === '}' || c === ']' || c === ')') depth--;
    }
    if (depth <= 0) return n;
  }
  return lines.length;
}
