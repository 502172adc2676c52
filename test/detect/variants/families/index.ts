import type { Rewrite } from '../rewrite.js';
import { BICEP_STRUCTURE } from './bicep-structure.js';
import { BICEP_VALUES } from './bicep-values.js';
import { CLASS_FAMILIES } from './classes/index.js';
import { ARGO_HELM, argoSubchartValues, helmGlobalValues, helmSubchartValues } from './helm-values.js';
import { fluxHelmReleaseValues, kustomizeHelmCharts } from './installs.js';
import { kueueCoveredReordered, kueueFlavorsSplit } from './kueue-groups.js';
import { ODD_SHAPES } from './odd-shapes.js';
import { kustomizeComponent, kustomizeJson6902, kustomizeNestedBases, kustomizePsm } from './kustomize.js';
import { TF_COPIES } from './tf-copies.js';
import { tfDefaultsAutoTfvars } from './tf-defaults-auto-tfvars.js';
import { tfModuleWrapped } from './tf-module-wrapped.js';
import { TF_OPENTOFU } from './tf-opentofu.js';
import { tfProviderAlias } from './tf-provider-alias.js';
import { TF_STRINGS } from './tf-strings.js';
import { TF_TWINS } from './tf-twins.js';
import { TF_WRAPPERS } from './tf-wrappers.js';
import { YAML_QUANTITIES } from './yaml-quantities.js';
import { yamlListAnchors } from './yaml-list-anchors.js';
import { yamlComplexKeys, yamlExplicitTags, yamlFlowTabs, yamlTaggedKeys } from './yaml-syntax.js';
import { UNUSUAL_SHAPES } from './unusual/index.js';
import { GO_YAML_READINGS } from './go-yaml-readings.js';
import { GITOPS_OVERRIDES } from './gitops-overrides.js';
import { kustomizeAnnotationTarget } from './classes/kustomize-ops.js';

/**
 * Rewrite families the first tables lacked (issue 26, §3): YAML syntax the core schema reads
 * alike, quantities as `resource.Quantity` parses them, Kueue groups reshaped, Terraform
 * expressions folded before a plan and copies spelt otherwise, Helm values set from elsewhere,
 * and kustomize patches in their other forms; tags and spellings go-yaml reads as the number they
 * replace, and values given twice where the applier's order of precedence picks one.
 */
export const FAMILIES: readonly Rewrite[] = [
  yamlExplicitTags,
  yamlTaggedKeys,
  yamlComplexKeys,
  yamlFlowTabs,
  ...YAML_QUANTITIES,
  kueueCoveredReordered,
  kueueFlavorsSplit,
  ...TF_WRAPPERS,
  ...TF_STRINGS,
  ...TF_COPIES,
  tfProviderAlias,
  tfDefaultsAutoTfvars,
  tfModuleWrapped,
  ...TF_OPENTOFU,
  helmGlobalValues,
  helmSubchartValues,
  ...ARGO_HELM,
  argoSubchartValues,
  fluxHelmReleaseValues,
  kustomizeHelmCharts,
  kustomizePsm,
  kustomizeComponent,
  kustomizeJson6902,
  kustomizeNestedBases,
  ...ODD_SHAPES,
  ...CLASS_FAMILIES,
  ...BICEP_VALUES,
  ...BICEP_STRUCTURE,
  ...TF_TWINS,
  yamlListAnchors,
  ...UNUSUAL_SHAPES,
  ...GO_YAML_READINGS,
  ...GITOPS_OVERRIDES,
  kustomizeAnnotationTarget,
];
