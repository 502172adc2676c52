import type { Rewrite } from '../../rewrite.js';
import { helmIndexedValues, helmTemplateDefaults, helmTplValues, fluxValuesFrom } from './helm-shapes.js';
import { kustomizeJson6902Copy, kustomizeJson6902Move, kustomizeLabelTarget, kustomizePatchTarget } from './kustomize-ops.js';
import { TF_OVERRIDES } from './tf-overrides.js';
import { TF_FOLDED, TF_FOLDED_MORE, tfLocalsFile, tfOptionalDefaults } from './tf-values.js';
import { YAML_SUFFIXES, yamlCommentBeforeValue, yamlJsonDocuments, yamlLimitsOnly, yamlListLast, yamlWideIndent } from './yaml-layout.js';

/**
 * Rewrite families that try whole classes of what the applier reads alike: Terraform override
 * files and values folded from types, functions and other files; YAML laid out otherwise, JSON
 * documents, a List after other documents, requests left to their limits, quantities with SI
 * suffixes; JSON 6902 `move` and `copy`, patches that select their object by a target or a
 * label; Helm values through `tpl`, `default`, `index` and a Flux `valuesFrom` ConfigMap.
 */
export const CLASS_FAMILIES: readonly Rewrite[] = [
  ...TF_OVERRIDES,
  tfOptionalDefaults,
  tfLocalsFile,
  ...TF_FOLDED,
  ...TF_FOLDED_MORE,
  yamlCommentBeforeValue,
  yamlJsonDocuments,
  yamlListLast,
  yamlWideIndent,
  yamlLimitsOnly,
  ...YAML_SUFFIXES,
  kustomizeJson6902Move,
  kustomizeJson6902Copy,
  kustomizePatchTarget,
  kustomizeLabelTarget,
  helmTplValues,
  helmTemplateDefaults,
  helmIndexedValues,
  fluxValuesFrom,
];
