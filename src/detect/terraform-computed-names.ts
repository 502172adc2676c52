import type { NotFollowed } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { TerraformBudget } from './terraform/expr-budget.js';
import { evalSource } from './terraform/expr-eval.js';
import type { Scope } from './terraform/expr-scope.js';
import { Unresolved } from './terraform/expr-values.js';
import { ownAddress } from './terraform-references.js';

/*
 * A machine resource no parser reads is known to the floor only by the GPU names in its text; a
 * value Terraform computes (`join("", ["L4-1", "-24G"])`, `base64decode(…)`, `replace(…)`, a
 * `\u` escape) holds none to scan, though it names the same machine. Each such value of a
 * changed block is evaluated: one that comes to a GPU name is not followed, and a machine-type
 * argument that cannot be evaluated is not followed either, since its machine is not known.
 */

/** `name = value` on one line of a block body. */
const ARGUMENT = /^[ \t]*([A-Za-z_][\w-]*)[ \t]*=[ \t]*(.+?)[ \t]*$/;
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
  const out: NotFollowed[] = [];
  for (const block of blocks) {
    for (let n = block.from + 1; n < block.to; n++) {
      const m = ARGUMENT.exec(lines[n - 1] ?? '');
      const [name, source] = [m?.[1] ?? '', m?.[2] ?? ''];
      if (m === null || PLAIN.test(source) || VALUE_REF.test(source) || source.length > MAX_SOURCE || /[{[(]$/.test(source)) continue;
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
            needs: `${name} = ${source} (evaluates to "${value}")`,
            inputs: [gpu.token],
          });
      } else if (value === undefined && MACHINE_ARGUMENT.test(name))
        out.push({
          file,
          line: n,
          reason: 'unaccounted-signal',
          subject,
          needs: `${name} = ${source} (a machine type not known statically)`,
        });
    }
  }
  return out;
}

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
