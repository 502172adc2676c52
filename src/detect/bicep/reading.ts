import type { Budget } from '../kit/eval-budget.js';
import type { PoolsFound } from './aks-pools.js';
import type { BicepUnknown, BicepValue } from './values.js';

// The types a template's reading and its modules' readings share: template-read.ts reads a
// template, modules.ts reads the templates it calls through the reader it is handed.

/** What a parameter is given: a value, a value that cannot be known, or nothing (undefined: its default applies). */
export type Given = (name: string) => BicepValue | BicepUnknown | undefined;

/** One reading of templates: the Bicep files of the set by path, the budget they share, and the modules being read. */
export interface ReadContext {
  templates: ReadonlyMap<string, string>;
  budget: Budget;
  /** Templates being read, outermost first: a module that calls itself is not read again. */
  chain: readonly string[];
}

/** Reads one template given its parameters' values (template-read.ts's readTemplate). */
export type TemplateReader = (
  path: string,
  given: Given,
  missing: string,
  ctx: ReadContext,
) => PoolsFound & { params: ReadonlySet<string> };
