import type { Rewrite } from '../rewrite.js';
import { numbersBehindMergeKey } from '../rewrites-yaml.js';
import { isQuantity } from '../shapes/quantities.js';
import { mapFiles } from '../variant-tree.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapObjectFiles } from './yaml-objects.js';

/**
 * Spellings go-yaml v2 (sigs.k8s.io/yaml: kubectl, Helm, Argo CD, Flux) reads as the number they
 * replace, though a YAML 1.2 reader, or a reader of plain scalars only, reads them otherwise:
 * explicit core tags on quoted text, the `!!merge` tag on a merge key, a `%TAG` handle for the
 * core schema on numbers, and flow-style JSON with comments between its entries.
 */

/**
 * Every whole number outside `metadata` a quoted string tagged `!!int` (`!!int "8"`): go-yaml
 * resolves an explicitly tagged scalar by its tag, quoted or not (decode.go `scalar`), so it is
 * the integer 8; a reader that takes quotes for a string reads "8".
 */
const yamlIntTagQuoted: Rewrite = {
  id: 'yaml-int-tag-quoted',
  what: 'every whole number a quoted string tagged `!!int "8"`',
  apply: (sides) =>
    mapObjectFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (keys[0] === 'metadata' ? null : `!!int "${v}"`))),
};

/**
 * Every quantity (quotas, limits, requests) tagged `!!str` (`!!str 8`): a resource.Quantity takes
 * the string "8" as it takes the number, so the object is the same.
 */
const yamlStrQuantities: Rewrite = {
  id: 'yaml-str-quantities',
  what: 'every quantity (quotas, limits) tagged `!!str 8`',
  apply: (sides) =>
    mapObjectFiles(sides, (_docs, _path, text) => mapPlainIntegers(text, (v, keys) => (isQuantity(keys) ? `!!str ${v}` : null))),
};

/**
 * Every whole number outside `metadata` tagged through a `%TAG` handle for the core schema
 * (`%TAG !k! tag:yaml.org,2002:`, `!k!int 8`): the handle expands to `tag:yaml.org,2002:int`, the
 * same tag as `!!int`. Each document carries its own directive (a directive holds for one document).
 */
const yamlTagHandleNumbers: Rewrite = {
  id: 'yaml-tag-handle-numbers',
  what: 'a `%TAG` handle for the core schema, every whole number `!k!int 8`',
  apply: (sides) =>
    mapObjectFiles(sides, (docs, _path, text) => {
      let n = 0;
      const tagged = mapPlainIntegers(text, (v, keys) => {
        if (keys[0] === 'metadata') return null;
        n++;
        return `!k!int ${v}`;
      });
      if (n === 0) return null;
      // One document per `---`-separated part, each given the directive (a directive holds for one document).
      const parts = tagged.split(/^---[^\n]*\n/m).filter((p) => p.replace(/^\s*#.*$/gm, '').trim() !== '');
      if (parts.length !== docs.length) return null;
      return parts.map((p) => `%TAG !k! tag:yaml.org,2002:\n---\n${p.endsWith('\n') ? p : `${p}\n`}...\n`).join('');
    }),
};

/**
 * The `yaml-merge-key` layout with each merge key tagged `!!merge`: go-yaml v2 and v3 take `<<`
 * tagged `tag:yaml.org,2002:merge` as a merge key (decode.go `isMerge`), as they take it plain.
 */
const yamlMergeTagged: Rewrite = {
  id: 'yaml-merge-tagged',
  what: 'numbers of each mapping moved into a merge key tagged `!!merge <<:`',
  apply: async (sides, c, random) => {
    const merged = await numbersBehindMergeKey.apply(sides, c, random);
    if (merged === null) return null;
    return mapFiles(merged, (path, text) =>
      sides.base.files[path] === text || sides.head.files[path] === text || !/^\s*(- )?<<:/m.test(text)
        ? null
        : { [path]: text.replace(/^(\s*(?:- )?)<<:/gm, '$1!!merge <<:') },
    );
  },
};

/**
 * Each document written as JSON (quoted keys, flow mappings and sequences) one entry a line, a
 * YAML comment after every line that ends an entry or opens a collection: JSON is YAML's flow
 * style, and go-yaml skips comments inside flow collections as anywhere else. The file keeps its
 * `.yaml` name and opens with a comment, so every applier reads it as YAML, not JSON.
 */
const yamlJsonFlowComments: Rewrite = {
  id: 'yaml-json-flow-comments',
  what: 'each document JSON in a `.yaml` file, a `# comment` after every entry',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) => {
      const out: string[] = [];
      for (const doc of docs) {
        const value: unknown = doc.toJS({ maxAliasCount: -1 });
        // Only what JSON carries as it is: a number JSON would spell otherwise, a date, a binary, is left out.
        if (!isPlainJson(value)) return null;
        const json = JSON.stringify(value, null, 2);
        out.push(
          json
            .split('\n')
            .map((line, i) => (/[,{[]$/.test(line) ? `${line} # gj entry ${i}` : line))
            .join('\n'),
        );
      }
      // A comment first: kubectl decodes a stream that opens with `{` as JSON, which has no comments.
      return `# objects in JSON, read as YAML\n${out.join('\n---\n')}\n`;
    }),
};

function isPlainJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isPlainJson);
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.values(v).every(isPlainJson);
  return false;
}

export const GO_YAML_READINGS: readonly Rewrite[] = [
  yamlIntTagQuoted,
  yamlStrQuantities,
  yamlTagHandleNumbers,
  yamlMergeTagged,
  yamlJsonFlowComments,
];
