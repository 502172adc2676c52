import type { NotFollowed } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { TerraformBudget } from './terraform/expr-budget.js';
import { evalSource } from './terraform/expr-eval.js';
import type { Scope } from './terraform/expr-scope.js';
import { expressionExtent } from './terraform/expr-extent.js';
import { Unresolved } from './terraform/expr-values.js';
import { lineAt, lineStarts } from './kit/signal-scan/structure.js';
import { ownAddress } from './terraform-references.js';

/*
 * A machine resource no parser reads is known to the floor only by the GPU names in its text; a
 * value Terraform computes (`join("", ["L4-1", "-24G"])`, `base64decode(…)`, `replace(…)`, a
 * `\u` escape) holds none to scan, though it names the same machine. Each such value of a
 * changed block is evaluated: one that comes to a GPU name is not followed, and a machine-type
 * argument that cannot be evaluated is not followed either, since its machine is not known.
 */

/** `name = value` on one line of a block body (of a CRLF file too: `.` stops at a carriage return). */
const ARGUMENT = /^[ \t]*([A-Za-z_][\w-]*)[ \t]*=[ \t]*(.+?)[ \t\r]*$/;
/** What precedes the value of an ARGUMENT line. */
const ARGUMENT_HEAD = /^[ \t]*[A-Za-z_][\w-]*[ \t]*=[ \t]*/;
/** A value the text scan reads as written: a plain string, number or bool, a reference. */
const PLAIN = /^(?:"[^"\\$%]*"|-?\d+(?:\.\d+)?|true|false|null|[A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*)$/;
/** Arguments that name a machine, by the words providers use. */
const MACHINE_ARGUMENT = /(?:^|_)(?:size|type|types|flavor|flavor_name|shape|plan|sku|class|machine|instance)$/;
/** Values with `var.` or `local.`: terraform-value-references.ts follows those to their definitions. */
const VALUE_REF = /(?<![\w.-])(?:var|local)\./;
/** Evaluation of one value stops here: values this long are no machine type. */
const MAX_SOURCE = 4_096;

const UNKNOWN: Scope = {
  variable: (name) => {
    throw new Unresolved(`var.${name}`);
  },
  local: (name) => {
    throw new Unresolved(`local.${name}`);
  },
  bound: new Map(),
  budget: new TerraformBudget(),
};

/** Notes on the computed values of `blocks` (changed machine resources no parser read) in `text`. */
export function computedNameNotes(file: string, text: string, blocks: readonly HclBlock[]): NotFollowed[] {
  const lines = text.split('\n');
  const starts = lineStarts(text);
  const out: NotFollowed[] = [];
  for (const block of blocks) {
    // Lines of heredoc bodies are text of a value, never arguments of their own.
    let bodyUntil = 0;
    for (let n = block.from + 1; n < block.to; n++) {
      if (n <= bodyUntil) continue;
      const argument = argumentAt(text, lines, starts, n, block.to);
      if (argument === null) continue;
      const { name, source } = argument;
      bodyUntil = Math.max(bodyUntil, argument.bodyUntil);
      if (PLAIN.test(source) || VALUE_REF.test(source) || source.length > MAX_SOURCE) continue;
      const value = evaluated(source);
      const subject = ownAddress(block) ?? block.type;
      if (typeof value === 'string') {
        const gpu = accountSignals(file, `${name} = ${JSON.stringify(value)}\n`).signals.find((s) => s.kind !== 'gpu-key');
        if (gpu !== undefined)
          out.push({
            file,
            line: n,
            reason: 'unaccounted-signal',
            subject,
            needs: `${name} = ${oneLine(source)} (evaluates to "${value}")`,
            inputs: [gpu.token],
          });
      } else if (value === undefined && MACHINE_ARGUMENT.test(name))
        out.push({
          file,
          line: n,
          reason: 'unaccounted-signal',
          subject,
          needs: `${name} = ${oneLine(source)} (a machine type not known statically)`,
        });
    }
  }
  return out;
}

/**
 * The argument set on line `n` with its whole value, which may run over later lines (a heredoc, a
 * call or list broken over lines); the last line of the heredoc bodies it holds. An argument whose
 * value is not closed before the block ends is its first line, which then cannot be evaluated.
 */
function argumentAt(
  text: string,
  lines: readonly string[],
  starts: readonly number[],
  n: number,
  blockEnd: number,
): { name: string; source: string; bodyUntil: number } | null {
  const line = lines[n - 1] ?? '';
  const m = ARGUMENT.exec(line);
  if (m === null) return null;
  const name = m[1] ?? '';
  const from = (starts[n - 1] ?? 0) + (ARGUMENT_HEAD.exec(line)?.[0].length ?? 0);
  const limit = starts[blockEnd - 1] ?? text.length;
  const extent = expressionExtent(text, from, limit);
  if (extent === null) return { name, source: m[2] ?? '', bodyUntil: 0 };
  const lastBody = extent.heredocs.reduce((max, h) => Math.max(max, h.to), -1);
  return { name, source: text.slice(from, extent.end), bodyUntil: lastBody < 0 ? 0 : lineAt(starts, lastBody) };
}

/** A value written over several lines, on one line for a note. */
const oneLine = (source: string): string => source.replace(/\s*\n\s*/g, ' ');

/** The value of one expression, a string when it is one; undefined when it cannot be known here. */
function evaluated(source: string): unknown {
  try {
    const value: unknown = evalSource(source, { ...UNKNOWN, budget: new TerraformBudget() });
    return typeof value === 'string' ? value : null;
  } catch (err) {
    // Unresolved is an Error: a reference, a budget or a function this value cannot be known by.
    if (err instanceof Error) return undefined;
    throw err;
  }
}
