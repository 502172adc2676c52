import { Budget } from '../kit/eval-budget.js';
import type { Expr } from './expr-parse.js';

/** The evaluation budget of one Terraform reading, with the expressions it parsed from their source text. */
export class TerraformBudget extends Budget {
  /** So a local read a thousand times is parsed once. */
  readonly parsed = new Map<string, Expr | Error>();
}

/** The message a set of files gets when its budget ran out. */
export function budgetMessage(why: string): string {
  return `evaluating the Terraform expressions of this folder went over gpu-justify's budget (${why}); nothing they declare was read, so the GPU capacity here is not checked`;
}
