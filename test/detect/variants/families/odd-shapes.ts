import type { Rewrite } from '../rewrite.js';
import { yamlBinaryValues, yamlEscapedIdentity, yamlEscapedKeys, yamlEscapedValues } from './yaml-hidden-names.js';
import {
  yamlDirectives,
  yamlIndentedSeparator,
  yamlManyDocuments,
  yamlNullDocuments,
  yamlTagDirective,
  yamlUnusedAnchors,
} from './yaml-streams.js';

/**
 * Shapes a hostile or unusual repository writes (issue 26): names no line holds as written,
 * streams with directives, empty documents, unused anchors and thousands of documents.
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
  yamlManyDocuments,
];
