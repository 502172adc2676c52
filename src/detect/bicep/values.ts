import type { Budget } from '../kit/eval-budget.js';
import { GpuJustifyError } from '../../domain/errors.js';

export type BicepValue = null | boolean | number | string | BicepValue[] | { [key: string]: BicepValue };

/** A value that cannot be known without deploying; `culprit` names the expression. */
export class BicepUnknown extends GpuJustifyError {
  override readonly kind = 'bicep-unknown';
  constructor(readonly culprit: string) {
    super(culprit);
  }
}

/** What names resolve to: parameters (a parameter file's value, else the default) and variables. */
export interface BicepScope {
  lookup(name: string): BicepValue;
  /** What evaluating this template may still cost (kit/eval-budget.ts): past it, BudgetExceeded. */
  budget: Budget;
}
