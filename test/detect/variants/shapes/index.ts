import type { Rewrite } from '../rewrite.js';
import { yamlAsJson } from './yaml-as-json.js';
import { yamlFlowStyle } from './yaml-flow-style.js';
import { yamlIntTag } from './yaml-int-tag.js';
import { yamlSignedNumbers } from './yaml-signed-numbers.js';
import { yamlQuotedKeys } from './yaml-quoted-keys.js';
import { yamlDocumentMarkers } from './yaml-document-markers.js';
import { yamlQuantityStrings } from './yaml-quantity-strings.js';
import { yamlBlockScalar } from './yaml-block-scalar.js';
import { yamlNestedList } from './yaml-nested-list.js';
import { yamlTypedList } from './yaml-typed-list.js';
import { yamlReorderedKeys } from './yaml-reordered-keys.js';
import { yamlDuplicateKeys } from './yaml-duplicate-keys.js';
import { yamlGpuComments } from './yaml-gpu-comments.js';
import { yamlGpuAnnotation } from './yaml-gpu-annotation.js';
import { crlf } from './crlf.js';
import { utf8Bom } from './utf8-bom.js';
import { moveDeeper } from './move-deeper.js';
import { upperExtension } from './upper-extension.js';
import { kustomizeNoExtension } from './kustomize-no-extension.js';
import { padUnderLimit } from './pad-under-limit.js';
import { tfLocals } from './tf-locals.js';
import { tfLookup } from './tf-lookup.js';
import { tfTry } from './tf-try.js';
import { tfCoalesce } from './tf-coalesce.js';
import { tfTernary } from './tf-ternary.js';
import { tfForExpr } from './tf-for-expr.js';
import { tfMerge } from './tf-merge.js';
import { tfCountConditional } from './tf-count-conditional.js';
import { tfMoved } from './tf-moved.js';
import { tfTerraformTfvars } from './tf-terraform-tfvars.js';
import { tfAutoTfvars } from './tf-auto-tfvars.js';
import { tfTfvarsJson } from './tf-tfvars-json.js';
import { yamlDocumentsReordered } from './yaml-documents-reordered.js';
import { yamlMixedQuotedKeys } from './yaml-mixed-quoted-keys.js';
import { yamlBlockScalarNames } from './yaml-block-scalar-names.js';
import { yamlAnchoredObjects } from './yaml-anchored-objects.js';
import { tfDynamic } from './tf-dynamic.js';
import { tfJsonInterpolated } from './tf-json-interpolated.js';
import { TF_MANIFESTS } from './tf-manifest.js';

/** Shapes of the same objects and pools that the appliers read alike (or refuse, which is not followed): one file each. */
export const SHAPES: readonly Rewrite[] = [
  yamlAsJson,
  yamlFlowStyle,
  yamlIntTag,
  yamlSignedNumbers,
  yamlQuotedKeys,
  yamlDocumentMarkers,
  yamlQuantityStrings,
  yamlBlockScalar,
  yamlNestedList,
  yamlTypedList,
  yamlReorderedKeys,
  yamlDuplicateKeys,
  yamlGpuComments,
  yamlGpuAnnotation,
  crlf,
  utf8Bom,
  moveDeeper,
  upperExtension,
  kustomizeNoExtension,
  padUnderLimit,
  tfLocals,
  tfLookup,
  tfTry,
  tfCoalesce,
  tfTernary,
  tfForExpr,
  tfMerge,
  tfCountConditional,
  tfMoved,
  tfTerraformTfvars,
  tfAutoTfvars,
  tfTfvarsJson,
  yamlDocumentsReordered,
  yamlMixedQuotedKeys,
  yamlBlockScalarNames,
  yamlAnchoredObjects,
  tfDynamic,
  tfJsonInterpolated,
  ...TF_MANIFESTS,
];
