import { isMap, isScalar, isSeq, parseAllDocuments, parseDocument, YAMLParseError } from 'yaml';
import type { Document, DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions } from 'yaml';

/**
 * The `yaml` package's parse, with its check for duplicate keys made linear. The package checks
 * each key of a map against every key before it (`uniqueKeys`, on by default): a map of 40,000
 * keys, about 600 kB on one line, takes minutes, which a pull request's file, a values file or a
 * `yamldecode()` text may be. Here each map's keys are checked once against a set, and a duplicate
 * is the same error (`DUPLICATE_KEY`, "Map keys must be unique") on the document as the package
 * gives, so every caller that refuses a document with errors refuses the same documents.
 */

type Options = ParseOptions & DocumentOptions & SchemaOptions;

/** The documents of `text`, as `parseAllDocuments` gives them with `uniqueKeys` on, in linear time. */
export function parseAllDocumentsLinear(text: string, options: Options = {}): Document.Parsed[] {
  const docs = parseAllDocuments(text, { ...options, uniqueKeys: false });
  // An empty stream gives an empty list; an error before any document gives an EmptyStream.
  if (!Array.isArray(docs)) return [];
  for (const doc of docs) markDuplicateKeys(doc);
  return docs;
}

/** One document, as `parseDocument` gives it with `uniqueKeys` on, in linear time. */
export function parseDocumentLinear(text: string, options: Options = {}): Document.Parsed {
  const doc = parseDocument(text, { ...options, uniqueKeys: false });
  markDuplicateKeys(doc);
  return doc;
}

/** The value of `text`, as the package's `parse` gives it (throwing its first error), in linear time. */
export function parseYamlLinear(text: string, options: Options & ToJSOptions = {}): unknown {
  const doc = parseDocumentLinear(text, options);
  const [first] = doc.errors;
  if (first) throw first;
  return doc.toJS(options);
}

/**
 * Adds the package's own duplicate-key error for each scalar key seen before in its map. The walk
 * keeps its own stack (a document nested 200,000 deep would overflow a recursive one) and does not
 * follow aliases (a billion laughs is walked once, node by node).
 */
function markDuplicateKeys(doc: Document.Parsed): void {
  const stack: unknown[] = [doc.contents];
  for (let node = stack.pop(); stack.length > 0 || node !== undefined; node = stack.pop()) {
    // One by one: a spread of a long list would overflow the call's arguments.
    if (isSeq(node)) for (const item of node.items) stack.push(item);
    if (!isMap(node)) continue;
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      stack.push(pair.key, pair.value);
      const key = pair.key;
      if (!isScalar(key) || Number.isNaN(key.value)) continue;
      if (!seen.has(key.value)) {
        seen.add(key.value);
        continue;
      }
      const at = key.range?.[0] ?? 0;
      doc.errors.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
    }
  }
}
