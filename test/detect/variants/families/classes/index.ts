import type { Rewrite } from '../../rewrite.js';
import { kustomizeJson6902Copy, kustomizeJson6902Move, kustomizePatchTarget } from './kustomize-ops.js';
import { TF_OVERRIDES } from './tf-overrides.js';
import { TF_FOLDED, tfLocalsFile, tfOptionalDefaults } from './tf-values.js';
import { YAML_SUFFIXES, yamlCommentBeforeValue, yamlJsonDocuments, yamlLimitsOnly, yamlListLast, yamlWideIndent } from './yaml-layout.js';

/**
 * Rewrite families that try whole classes of what the applier reads alike: Terraform override
 * files and values folded from types, functions and other files; YAML laid out otherwise, JSON
 * documents, a List after other documents, requests left to their limits, quantities with SI
 * suffixes; JSON 6902 `move` and `copy`, and patches that select their object by a target.
 */
export const CLASS_FAMILIES: readonly Rewrite[] = [
  ...TF_OVERRIDES,
  tfOptionalDefaults,
  tfLocalsFile,
  ...TF_FOLDED,
  yamlCommentBeforeValue,
  yamlJsonDocuments,
  yamlListLast,
  yamlWideIndent,
  yamlLimitsOnly,
  ...YAML_SUFFIXES,
  kustomizeJson6902Move,
  kustomizeJson6902Copy,
  kustomizePatchTarget,
];
