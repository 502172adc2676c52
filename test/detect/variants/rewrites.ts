import type { Rewrite } from './rewrite.js';
import { padOverLimit, renameBoth, renameInPr, replaceByLinkInside, replaceByLinkOutside, replaceBySubmodule } from './rewrites-files.js';
import { intoHelmValues, intoKustomizePatch } from './rewrites-render.js';
import { argoApplicationPath, helmTwoValueFiles, kustomizeMoved, kustomizeReplacements } from './rewrites-gitops.js';
import {
  countTwo,
  forEachOneKey,
  forEachTwoKeys,
  intoModuleInputs,
  tfJsonTwin,
  tfvarsAmbiguous,
  tfvarsElsewhere,
} from './rewrites-terraform.js';
import { rootVarFile } from './rewrites-root-var-file.js';
import { FAMILIES } from './families/index.js';
import { SHAPES } from './shapes/index.js';
import { numbersBehindMergeKey, quotaBehindAlias, splitDocuments, wrapInList, yaml11Numbers } from './rewrites-yaml.js';

/** Every rewrite the metamorphic test applies; each says which pull requests it applies to. */
export const REWRITES: readonly Rewrite[] = [
  wrapInList,
  quotaBehindAlias,
  numbersBehindMergeKey,
  yaml11Numbers,
  splitDocuments,
  intoKustomizePatch,
  intoHelmValues,
  helmTwoValueFiles,
  kustomizeMoved,
  argoApplicationPath,
  kustomizeReplacements,
  forEachOneKey,
  forEachTwoKeys,
  countTwo,
  intoModuleInputs,
  tfvarsElsewhere,
  tfvarsAmbiguous,
  rootVarFile,
  tfJsonTwin,
  renameBoth,
  renameInPr,
  padOverLimit,
  replaceBySubmodule,
  replaceByLinkInside,
  replaceByLinkOutside,
  ...SHAPES,
  ...FAMILIES,
];
