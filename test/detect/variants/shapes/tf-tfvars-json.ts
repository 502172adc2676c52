import type { Rewrite } from '../rewrite.js';
import { jsonValues, liftToVarFile } from './tf-var-file.js';

/** The numbers variables of the folder, set by `terraform.tfvars.json`, which Terraform loads in the folder without being told. */
export const tfTfvarsJson: Rewrite = {
  id: 'tf-tfvars-json',
  what: 'the numbers variables, their values in `terraform.tfvars.json`',
  apply: (sides) => liftToVarFile(sides, 'terraform.tfvars.json', jsonValues),
};
