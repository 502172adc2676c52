import type { Rewrite } from '../../rewrite.js';
import { ENCODINGS } from './encodings.js';
import { GITOPS_CARRIERS } from './gitops-carriers.js';
import { TF_FILE_VALUES } from './tf-file-values.js';
import { yamlCaseTwinKeys, yamlCrossDocumentAlias, yamlTabComments } from './yaml-documents.js';

/**
 * Shapes a hostile or merely unusual author writes that the applier reads alike (or refuses):
 * YAML aliases across documents, twin keys in another case, tabs before comments, files in UTF-16
 * or Windows-1252; Terraform numbers from data files, chains of locals, variable maps, merged
 * defaults and quoted numbers; kustomize name affixes and generated ConfigMaps, Helm subchart
 * aliases, Argo CD `forceString` parameters and ApplicationSet lists, Flux post-build variables.
 */
export const UNUSUAL_SHAPES: readonly Rewrite[] = [
  yamlCrossDocumentAlias,
  yamlCaseTwinKeys,
  yamlTabComments,
  ...ENCODINGS,
  ...TF_FILE_VALUES,
  ...GITOPS_CARRIERS,
];
