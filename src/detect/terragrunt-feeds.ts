import type { NotFollowed } from '../domain/index.js';
import { accountSignals, resolvedSpans } from './kit/signal-scan/account.js';
import { namesGpu } from './kit/gpu-signal.js';
import { parseTerraformFile } from './terraform/tf-json.js';
import type { FileAccounting } from './kit/signal-scan/account.js';
import type { Lines } from './kit/lines.js';
import { localEntries } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { moduleFeeds, ownModuleDir, resolvePath, without } from './terraform-feeds.js';
import type { TfvarsSide } from './tfvars-feeds.js';
import { escapeRegex } from '../util/escape-regex.js';

/** A unit's `terraform { source = "…" }`. */
const UNIT_SOURCE = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/m;
const INPUTS = /^inputs[ \t]*=[ \t]*\{/;

/**
 * The folder of this repository a unit's source names: `../…` by path (`//` marks a folder inside
 * it), or the repository's own URL (`git::https://github.com/acme/infra.git//modules/x?ref=v1`).
 */
export function unitModule(file: string, text: string, repositories: readonly string[]): string | null {
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

/** A unit's `inputs` block: its entries, each with its lines; empty where it has none. */
export function unitInputs(text: string): { name: string; from: number; to: number }[] {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => INPUTS.test(l)) + 1;
  if (from === 0) return [];
  return localEntries(text, { type: 'inputs', labels: [], from, to: closing(lines, from) });
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

/**
 * A changed Terragrunt parent's inputs, judged in every unit that includes it as a unit's own
 * are: a changed value naming a GPU that a unit does not set itself must feed, in that unit's
 * module, only what is read (terraform-feeds.ts); else it is not followed at its key. A unit whose
 * module is not in this repository is judged by its own reading (its notes are the parent's too);
 * one naming no module takes the parent's; with no module named in either, it is not followed.
 */
export async function parentInputsNotFed(
  parent: string,
  texts: { before: string | null; after: string | null },
  units: readonly string[],
  sides: { base: TfvarsSide; head: TfvarsSide },
): Promise<NotFollowed[]> {
  const inputsOf = (path: string, text: string | null): Record<string, unknown> => {
    if (text === null) return {};
    const parsed = parseTerraformFile(path, text);
    const inputs = parsed.ok ? parsed.value.inputs : undefined;
    return inputs !== null && typeof inputs === 'object' && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : {};
  };
  const before = inputsOf(parent, texts.before);
  const after = inputsOf(parent, texts.after);
  const keys: string[] = [];
  for (const key of [...new Set([...Object.keys(after), ...Object.keys(before)])]) {
    const [b, a] = [JSON.stringify(before[key] ?? null), JSON.stringify(after[key] ?? null)];
    if (a === b || !namesGpu(`${a} ${b}`)) continue;
    const side = key in after ? sides.head : sides.base;
    for (const unit of units) {
      const text = await side.read(unit);
      if (text === null || key in inputsOf(unit, text)) continue;
      const source = UNIT_SOURCE.test(text);
      // A unit naming no module takes the parent's, its path taken from the unit as Terragrunt merges it.
      const from = source ? text : ((key in after ? texts.after : texts.before) ?? '');
      const moduleDir = unitModule(unit, from, side.repositories ?? []);
      // A module elsewhere, or named by an expression, is its unit's reading's to judge; none named at all, not followed.
      if (moduleDir === null && UNIT_SOURCE.test(from)) continue;
      const feeds = moduleDir === null ? null : await moduleFeeds(moduleDir, side, side.cache, undefined, 1);
      if (feeds === null || (feeds.declares(key) && !feeds.variableFed(key))) {
        keys.push(key);
        break;
      }
    }
  }
  const [first] = keys;
  if (first === undefined) return [];
  const atHead = first in after;
  const text = (atHead ? texts.after : texts.before) ?? '';
  const line = lineOfInput(text, first);
  const token = accountSignals(parent, text).signals.find((s) => line === null || s.line >= line)?.token ?? first;
  return [
    {
      file: parent,
      line: atHead ? line : null,
      reason: 'unaccounted-signal',
      subject: token,
      ...(atHead ? {} : { needs: `line ${line ?? 1} before this change` }),
      inputs: keys,
    },
  ];
}

function lineOfInput(text: string, key: string): number | null {
  const escaped = escapeRegex(key);
  const m = new RegExp(`^[ \\t]*["']?${escaped}["']?[ \\t]*[=:]`, 'm').exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}
