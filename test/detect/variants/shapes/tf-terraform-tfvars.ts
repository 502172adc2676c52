import type { Rewrite } from '../rewrite.js';
import { hclValues, liftToVarFile } from './tf-var-file.js';

/** The numbers variables of the folder, set by `terraform.tfvars`, which Terraform loads in the folder without being told. */
export const tfTerraformTfvars: Rewrite = {
  id: 'tf-terraform-tfvars',
  what: 'the numbers variables, their values in `terraform.tfvars` beside',
  apply: (sides) => liftToVarFile(sides, 'terraform.tfvars', hclValues),
};
