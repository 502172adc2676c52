import type { Rewrite } from '../rewrite.js';
import { hclValues, liftToVarFile } from './tf-var-file.js';

/** The numbers variables of the folder, set by `gj.auto.tfvars`, which Terraform loads in the folder without being told. */
export const tfAutoTfvars: Rewrite = {
  id: 'tf-auto-tfvars',
  what: 'the numbers variables, their values in a `*.auto.tfvars` beside',
  apply: (sides) => liftToVarFile(sides, 'gj.auto.tfvars', hclValues),
};
