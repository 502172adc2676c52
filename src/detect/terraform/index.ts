/** Terraform (and Terragrunt): node pools of the cloud providers and their modules, and Kubernetes manifests embedded in HCL. */
export { terraformManifestsParser } from './manifests-parser.js';
export { terraformParser } from './terraform-parser.js';
