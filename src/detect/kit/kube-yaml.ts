import { Document, LineCounter, parseAllDocuments, Scalar, visit } from 'yaml';
import type { Node } from 'yaml';
import { resolvePlain } from './go-yaml-scalar.js';
import { anchorTargets, Normalizer, toJson } from './kube-yaml-normalize.js';
import { flowDepthPast } from './yaml-depth.js';
import type { Json, YamlDialect, YamlProblem } from './kube-yaml-normalize.js';
import { unwrapList } from './kube-yaml-list.js';

export { toJson } from './kube-yaml-normalize.js';
export type { Json, YamlDialect } from './kube-yaml-normalize.js';

/**
 * YAML as the tools that apply it read it. kubectl, Helm, Argo CD and Flux decode objects through
 * sigs.k8s.io/yaml, that is go-yaml v2 (YAMLToJSON): YAML 1.1 scalars (go-yaml-scalar.ts), aliases
 * expanded, merge keys applied in the order written, a repeated key's last value kept, keys turned
 * into JSON strings, and `List` objects applied item by item. Kustomize (kyaml, go-yaml v3) rejects
 * repeated keys and lets a map's own keys win over merged ones. The documents come back as the
 * `yaml` package's nodes, rewritten in place, so readers keep every value's source line.
 */

export interface YamlDoc {
  /** The root node, with aliases, merge keys and repeated keys resolved. */
  contents: unknown;
  /** Syntax errors: the document cannot be read at all. */
  errors: YamlProblem[];
  /**
   * What makes the applier refuse the document, or read it in a way this reading cannot be sure
   * of (a NaN value, a merge kubectl and kustomize read differently, a repeated key kustomize
   * rejects). `contents` is still the document as kubectl would read it, so its objects stay
   * known, but what it declares cannot be taken as applied.
   */
  rejections: YamlProblem[];
  range: [number, number, number];
  /** An object of a `List` document: the List's kind and the offset of its `items`. */
  inList?: { kind: string; pos: number };
}

export interface YamlReadOptions {
  dialect?: YamlDialect;
  /** Return the items of `List` objects (any object with `items`, as kubectl reads it) as documents of their own. */
  lists?: boolean;
}

/** Every document of a text, read as `dialect` reads it; line numbers come from `lc`. */
export function readYaml(text: string, lc: LineCounter, options: YamlReadOptions = {}): YamlDoc[] {
  const dialect = options.dialect ?? 'kubectl';
  // go-yaml refuses flow collections nested deeper than it allows; the parser here would take
  // time growing with the square of the depth first (200,000 brackets: a minute per reader).
  const tooDeep = flowDepthPast(text, MAX_FLOW_DEPTH);
  if (tooDeep !== null)
    return [
      {
        contents: null,
        errors: [{ message: `exceeded max depth of ${MAX_FLOW_DEPTH}`, pos: [tooDeep, tooDeep + 1] }],
        rejections: [],
        range: [0, text.length, text.length],
      },
    ];
  const parsed = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false, schema: 'failsafe', merge: false, strict: false });
  const docs = Array.isArray(parsed) ? parsed : [];
  const badSeparators = dialect === 'kubectl' && options.lists === true ? separatorErrors(text) : [];
  const out: YamlDoc[] = [];
  for (const doc of docs) {
    const range = doc.range;
    const errors: YamlProblem[] = doc.errors.map((e) => ({ message: e.message, pos: e.pos }));
    if (errors.length > 0) {
      out.push({ contents: doc.contents, errors, rejections: [], range });
      continue;
    }
    const targets = anchorTargets(doc.contents);
    const n = new Normalizer(targets, dialect, lc);
    const version = doc.directives.yaml;
    // go-yaml v2 (libyaml) accepts only `%YAML 1.1`.
    if (dialect === 'kubectl' && version.explicit === true && version.version !== '1.1') {
      n.problems.push({ message: 'found incompatible YAML document (go-yaml reads %YAML 1.1 only)', pos: [range[0], range[0] + 1] });
    }
    const sep = badSeparators.find((p) => p >= range[0] - 4 && p < range[2]);
    if (sep !== undefined)
      n.problems.push({ message: 'invalid YAML document separator: kubectl allows only a comment after ---', pos: [sep, sep + 3] });
    // Measured before the aliases are replaced by what they point at (a document without any needs no count).
    // go-yaml refuses such a document whole, as a parse error: it is left unexpanded, since each
    // reader of the expanded tree (its JSON, a patch, a walk) would take exponential time over it.
    if (targets.size > 0 && n.checkAliasing(doc.contents)) {
      out.push({ contents: doc.contents, errors: n.problems, rejections: [], range });
      continue;
    }
    const contents = n.value(doc.contents, range[0]);
    const items = options.lists === true ? unwrapList(contents, dialect, n.problems, 0) : null;
    if (items === null || items.length === 0) {
      out.push({ contents, errors: [], rejections: n.problems, range });
      continue;
    }
    for (const item of items) {
      out.push({ contents: item.node, errors: [], rejections: n.problems, range: rangeOf(item.node, range), inList: item.list });
    }
  }
  return out;
}

/** go-yaml's max_flow_level (yaml.v2 2.2.8 and later, yaml.v3): deeper flow nesting is an error. */
const MAX_FLOW_DEPTH = 10_000;

function rangeOf(node: unknown, fallback: [number, number, number]): [number, number, number] {
  const r = (node as Node).range;
  return r ? [r[0], r[1], r[2]] : fallback;
}

/** kubectl's YAMLReader splits at lines starting `---` and refuses anything but a comment after it. */
function separatorErrors(text: string): number[] {
  const out: number[] = [];
  const re = /^---([^\n]*)$/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const rest = (m[1] ?? '').trim();
    if (rest !== '' && !rest.startsWith('#')) out.push(m.index);
  }
  return out;
}

/**
 * The first document of a text as plain data, read as `dialect` reads it (Helm reads a values
 * file's first document only); undefined when it cannot be read.
 */
export function yamlValue(text: string, dialect: YamlDialect = 'kubectl'): Json | undefined {
  const [first] = readYaml(text, new LineCounter(), { dialect });
  if (first === undefined) return null;
  return first.errors.length > 0 || first.rejections.length > 0 ? undefined : toJson(first.contents);
}

/**
 * Plain data as YAML that reads back the same way (go-yaml v2's encoder quotes such strings too):
 * a string kubectl would read as something else (`yes`, `010`, `1e3`, `~`) is quoted.
 */
export function kubeStringify(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && resolvePlain(node.value).type !== 'str') node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
