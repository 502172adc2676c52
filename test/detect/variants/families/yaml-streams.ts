import { isCollection, isMap, isPair, isScalar, Scalar, visit, YAMLMap } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { isKustomizationFile, mapKubeFiles } from '../shapes/kube-files.js';
import { changedFiles } from '../variant-tree.js';
import type { VariantTree } from '../variant-tree.js';
import { docText } from '../yaml-text.js';
import { mapObjectFiles, objectDocuments } from './yaml-objects.js';

/*
 * The stream around the objects written as a hostile or unusual repository writes it, which
 * go-yaml and kubectl read to the same objects: directives, documents that hold nothing,
 * anchors nothing refers to, document markers inside block scalars, many documents before the one
 * that changes.
 */

const IDENTITY = new Set(['apiVersion', 'kind']);

/** Each document opened by the `%YAML 1.1` directive and closed by `...`, which a directive needs before the next. */
export const yamlDirectives: Rewrite = {
  id: 'yaml-directives',
  what: 'each document behind a `%YAML 1.1` directive, closed by `...`',
  apply: (sides) => mapObjectFiles(sides, (docs) => docs.map((d) => `%YAML 1.1\n---\n${docText(d)}...\n`).join('')),
};

/**
 * Each document behind a `%TAG !gj! tag:yaml.org,2002:` directive, its strings tagged `!gj!str`:
 * the handle names the core schema's own tag, so every string stays the string it was.
 */
export const yamlTagDirective: Rewrite = {
  id: 'yaml-tag-directive',
  what: 'a `%TAG` handle for the core schema, every string value tagged through it',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) => {
      let n = 0;
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const v = pair.value;
            // What tells an object is left as written (yaml-hidden-names.ts hides it on its own).
            const identity = isScalar(pair.key) && IDENTITY.has(String(pair.key.value));
            if (!identity && isScalar(v) && typeof v.value === 'string' && v.tag === undefined && !v.value.includes('\n')) {
              v.tag = 'tag:yaml.org,2002:str';
              n++;
            }
          },
        });
      if (n === 0) return null;
      return docs.map((d) => `%TAG !gj! tag:yaml.org,2002:\n---\n${docText(d).replace(/!!str /g, '!gj!str ')}...\n`).join('');
    }),
};

/** Documents that hold nothing (`--- ~`, `--- null`, an empty one, one of comments) before, between and after the objects: kubectl skips a null document. */
export const yamlNullDocuments: Rewrite = {
  id: 'yaml-null-documents',
  what: 'null, empty and comment-only documents around every object',
  apply: (sides) =>
    mapObjectFiles(sides, (docs, path) =>
      isKustomizationFile(path) ? null : `--- ~\n${docs.map((d) => `---\n${docText(d)}--- null\n---\n# nothing here\n---\n`).join('')}`,
    ),
};

/** Every value and collection given an anchor that no alias uses: anchors change no value. */
export const yamlUnusedAnchors: Rewrite = {
  id: 'yaml-unused-anchors',
  what: 'an anchor on every value and collection, none used',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) => {
      let n = 0;
      for (const doc of docs)
        visit(doc, {
          // Keys, and the `apiVersion` and `kind` that tell an object, are left as they are: a workload
          // is told by its `kind:` line as written (signal-scan/workload-kinds.ts), another class.
          Node(key, node, path) {
            const pair = path.at(-1);
            const identity = isPair(pair) && isScalar(pair.key) && IDENTITY.has(String(pair.key.value));
            if (key === 'key' || identity || !(isScalar(node) || isCollection(node)) || node.anchor !== undefined) return;
            node.anchor = `gj${++n}`;
          },
        });
      return docs.map(docText).join('---\n');
    }),
};

/** An annotation of each object holding, in a literal block, lines that read as document markers and objects at its margin. */
export const yamlIndentedSeparator: Rewrite = {
  id: 'yaml-indented-separator',
  what: 'an annotation with `---` and `kind: List` lines inside a literal block',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs) {
        const metadata = doc.get('metadata', true);
        if (!isMap(metadata)) continue;
        const found: unknown = metadata.get('annotations', true);
        const annotations = isMap(found) ? found : new YAMLMap();
        if (!isMap(found)) metadata.set('annotations', annotations);
        const note = new Scalar('---\napiVersion: v1\nkind: List\nitems: []\n---\n');
        note.type = Scalar.BLOCK_LITERAL;
        annotations.set('gpu-justify.test/notes', note);
      }
      return docs.map(docText).join('---\n');
    }),
};

/** About 850 KiB of ConfigMaps: many documents, the file still under the size limit. */
const FILLER_DOCUMENTS = 1_200;

function fillers(): string {
  let out = '';
  for (let i = 0; i < FILLER_DOCUMENTS; i++) {
    out += `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: filler-${i}\n  namespace: default\ndata:\n  note: "${'x'.repeat(600)}"\n---\n`;
  }
  return out;
}

/** The changed files of objects with 1,200 documents before their own, at both sides: the change is in the last ones. */
export const yamlManyDocuments: Rewrite = {
  id: 'yaml-many-documents',
  what: '1,200 ConfigMap documents (about 850 KiB) before the objects of each changed file',
  apply: (sides) => {
    const paths = changedFiles(sides).filter(
      (p) =>
        !isKustomizationFile(p) &&
        [sides.base.files[p], sides.head.files[p]].every((t) => t === undefined || objectDocuments(p, t) !== null),
    );
    if (paths.length === 0) return null;
    const pad = fillers();
    const side = (tree: VariantTree): VariantTree => {
      const files = { ...tree.files };
      for (const p of paths) {
        const text = files[p];
        if (text !== undefined) files[p] = `${pad}${text.replace(/^\ufeff/, '').replace(/^---\s*\n/, '')}`;
      }
      return { files, special: { ...tree.special } };
    };
    return { base: side(sides.base), head: side(sides.head) };
  },
};

/** One line of a quarter of a MiB: an annotation of the first object, a plain string nothing reads (the file stays under the limit). */
export const yamlLongLine: Rewrite = {
  id: 'yaml-long-line',
  what: 'an annotation of the first object a single line of 256 KiB',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      const pad = 'gj-'.repeat(87_382);
      for (const doc of docs.slice(0, 1)) {
        const metadata = doc.get('metadata', true);
        if (!isMap(metadata)) continue;
        const found: unknown = metadata.get('annotations', true);
        const annotations = isMap(found) ? found : new YAMLMap();
        if (!isMap(found)) metadata.set('annotations', annotations);
        annotations.set('gpu-justify.test/pad', pad);
      }
      return docs.map(docText).join('---\n');
    }),
};
