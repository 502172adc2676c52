import type { Rewrite } from '../rewrite.js';
import { crlfBomTrailing, oddPathNames } from './files-odd.js';
import { kubeSiblingVersion } from './kube-versions.js';
import { TF_COPIES_MORE } from './tf-copies-more.js';
import { TF_HIDDEN_STRINGS } from './tf-hidden-strings.js';
import { yamlGoExponent, yamlGoPrefixes } from './yaml-go-numbers.js';
import { yamlBinaryValues, yamlEscapedIdentity, yamlEscapedKeys, yamlEscapedValues } from './yaml-hidden-names.js';
import { yamlMergeOverridden, yamlMergeSequence } from './yaml-merges.js';
import {
  yamlDirectives,
  yamlIndentedSeparator,
  yamlLongLine,
  yamlManyDocuments,
  yamlNullDocuments,
  yamlTagDirective,
  yamlUnusedAnchors,
} from './yaml-streams.js';

/**
 * Shapes a hostile or unusual repository writes (issue 26): names no line holds as written (YAML
 * and HCL escapes, `!!binary`, base64), streams with directives, empty documents, unused anchors
 * and thousands of documents, merge keys whose decoys the applier overrides, numbers as go-yaml
 * alone reads them, sibling API versions, odd paths and line ends, and pool copies by `count` and
 * `for_each` in the spellings generated configurations use.
 */
export const ODD_SHAPES: readonly Rewrite[] = [
  yamlEscapedKeys,
  yamlEscapedValues,
  yamlBinaryValues,
  yamlEscapedIdentity,
  yamlDirectives,
  yamlTagDirective,
  yamlNullDocuments,
  yamlUnusedAnchors,
  yamlIndentedSeparator,
  yamlLongLine,
  yamlManyDocuments,
  yamlMergeOverridden,
  yamlMergeSequence,
  yamlGoPrefixes,
  yamlGoExponent,
  kubeSiblingVersion,
  oddPathNames,
  crlfBomTrailing,
  ...TF_COPIES_MORE,
  ...TF_HIDDEN_STRINGS,
];
