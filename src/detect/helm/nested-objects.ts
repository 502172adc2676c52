import { isMap, isScalar, isSeq, LineCounter, Scalar } from 'yaml';
import { parseDocumentLinear } from '../../util/yaml-linear.js';
import type { Node } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { maskTemplates } from '../kit/template-mask.js';
import { mapGet, nodeLine, scalarString } from '../kit/yaml-nodes.js';

/**
 * Kubernetes objects and Helm values held inside other YAML: chart values that list whole
 * objects (`extraObjects`, `extraManifests`, `resources` of the raw charts), Argo CD
 * Applications' `helm.valuesObject` / `helm.values`, Flux HelmReleases' `spec.values`, k3s
 * HelmCharts' `valuesContent`, `kind: List` items. Each is cut out as a YAML text of its own
 * whose lines keep their line numbers in the file, so the format readers read it as written.
 */
export interface Embedded {
  /** The embedded YAML at its own lines; every other line is blank. */
  text: string;
  /** `object` for a Kubernetes object, `values` for Helm values handed to a chart. */
  role: 'object' | 'values';
  /** Where it sits, for messages: `extraObjects[0]`, `Application ml › spec.source.helm.values`. */
  where: string;
  line: number;
}

interface EmbeddedNote {
  line: number;
  message: string;
}

export interface EmbeddedScan {
  found: Embedded[];
  notes: EmbeddedNote[];
}

// Holders of Helm values: Argo CD (valuesObject, values), Flux (values), k3s HelmChart
// (valuesContent), Cluster API HelmChartProxy (valuesTemplate).
const VALUES_KEYS = new Set(['values', 'valuesObject', 'valuesContent', 'valuesTemplate']);
// A ConfigMap's data strings are read by the format readers themselves.
const DATA_KEYS = new Set(['data', 'stringData', 'binaryData']);
// Templates stamped out once per claim or per matching resource: how many copies exist is not
// in the file, so their objects are not read as capacity.
const TEMPLATE_KINDS = new Set(['Composition', 'CompositionRevision', 'ClusterPolicy', 'Policy']);
const OBJECT_TEXT_RE = /^\s*(?:-\s+)?apiVersion\s*:/m;
const MAX_DEPTH = 40;

interface Source {
  text: string;
  lc: LineCounter;
  /** Parsed with templates masked: string values hold the mask, not the text. */
  masked: boolean;
}

/** The embedded objects and values of one YAML text (a file or a segment of one). */
export function embeddedYaml(text: string): EmbeddedScan {
  const scan: EmbeddedScan = { found: [], notes: [] };
  readText(text, '', true, scan, 0);
  return scan;
}

function readText(text: string, where: string, topLevel: boolean, scan: EmbeddedScan, depth: number): void {
  const { docs, lc, masked } = parseLenient(text);
  const src: Source = { text, lc, masked };
  for (const doc of docs) {
    if (doc.errors.length > 0) continue;
    walk(doc.contents, where, src, scan, { topLevel, depth });
  }
}

interface WalkState {
  /** The node is a document of the file itself: the format readers see it already. */
  topLevel: boolean;
  depth: number;
}

/** `a.b`, `a[0].b`; after an object or a string boundary, ` › ` starts a new part. */
function child(path: string, key: string): string {
  if (path === '') return key;
  return path.endsWith(' ›') ? `${path} ${key}` : `${path}.${key}`;
}

function walk(node: unknown, path: string, src: Source, scan: EmbeddedScan, state: WalkState): void {
  if (state.depth > MAX_DEPTH) return;
  const deeper: WalkState = { topLevel: false, depth: state.depth + 1 };
  if (isMap(node)) {
    const kind = scalarString(mapGet(node, 'kind'));
    const object = isObject(node);
    if (object && kind !== null && TEMPLATE_KINDS.has(kind)) return;
    const label = `${kind ?? 'object'} ${objectName(node)}`;
    // A List is read whole by the readers, which apply its items as kubectl does (kube-yaml.ts).
    if (kind !== null && isSeq(mapGet(node, 'items')) && !state.topLevel) {
      push(scan, src, node, 'object', path === '' ? label : path);
      return;
    }
    // The readers name the object in their messages; the path says where it sits.
    if (object && !state.topLevel) push(scan, src, node, 'object', path === '' ? label : path);
    const at = object ? `${path === '' ? '' : `${path} › `}${label} ›` : path;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : null;
      if (key === null) continue;
      if ((kind === 'ConfigMap' || kind === 'Secret') && DATA_KEYS.has(key)) continue;
      const keyPath = child(at, key);
      const value = pair.value;
      if (VALUES_KEYS.has(key) && isMap(value) && value.items.length > 0) push(scan, src, value, 'values', keyPath);
      if (isScalar(value)) {
        if (typeof value.value === 'string' && (VALUES_KEYS.has(key) || OBJECT_TEXT_RE.test(value.value))) {
          readString(value, keyPath, VALUES_KEYS.has(key), src, scan, state.depth);
        }
      } else {
        walk(value, keyPath, src, scan, deeper);
      }
    }
    return;
  }
  if (isSeq(node)) {
    const list = path.endsWith(' ›') ? path.slice(0, -2) : path;
    node.items.forEach((item, i) => {
      if (isScalar(item) && typeof item.value === 'string') readString(item, `${list}[${i}]`, false, src, scan, state.depth);
      else walk(item, `${list}[${i}]`, src, scan, deeper);
    });
  }
}

/** A string holding YAML (`values: |`, a raw chart's templated entry): read as a file of its own. */
function readString(node: Scalar, path: string, holdsValues: boolean, src: Source, scan: EmbeddedScan, depth: number): void {
  const value = stringValue(node, src);
  if (value === null || !value.includes(':') || (!holdsValues && !OBJECT_TEXT_RE.test(value))) return;
  const header = nodeLine(node, src.lc) ?? 1;
  if (node.type !== Scalar.BLOCK_LITERAL) {
    if (OBJECT_TEXT_RE.test(value)) {
      scan.notes.push({
        line: header,
        message: `${path}: Kubernetes objects in a quoted or folded string cannot be placed line by line; their GPU capacity is not read`,
      });
    }
    return;
  }
  // A literal block's lines start on the line after its `|` header.
  const padded = '\n'.repeat(header) + value;
  const at = `${path} ›`;
  if (holdsValues) scan.found.push({ text: padded, role: 'values', where: path, line: header + 1 });
  readText(padded, at, false, scan, depth + 1);
}

/** The string as written: a masked parse holds the mask, so the block is read again from source. */
function stringValue(node: Scalar, src: Source): string | null {
  if (typeof node.value !== 'string') return null;
  if (!src.masked) return node.value;
  const range = node.range;
  if (!range) return null;
  const doc = parseDocumentLinear(src.text.slice(range[0], range[1]));
  return doc.errors.length === 0 && isScalar(doc.contents) && typeof doc.contents.value === 'string' ? doc.contents.value : null;
}

function isObject(node: unknown): boolean {
  return (
    scalarString(mapGet(node, 'apiVersion')) !== null &&
    scalarString(mapGet(node, 'kind')) !== null &&
    (isMap(mapGet(node, 'metadata')) || isMap(mapGet(node, 'spec')))
  );
}

function objectName(node: unknown): string {
  return scalarString(mapGet(mapGet(node, 'metadata'), 'name')) ?? '(unnamed)';
}

/** The node's text cut out of its source: lines before and after are blank, columns are kept. */
function push(scan: EmbeddedScan, src: Source, node: Node, role: Embedded['role'], where: string): void {
  const range = node.range;
  if (!range) return;
  const [start, end] = range;
  const line = src.lc.linePos(start).line;
  if (reachesOutside(node, start, end)) {
    // Aliases or merge keys bring in values from elsewhere in the file: the text cut out would not
    // hold them, so the object is handed over as the JSON it resolves to, on its first line.
    scan.found.push({ text: '\n'.repeat(line - 1) + JSON.stringify(toJson(node)), role, where, line });
    return;
  }
  const lineStart = src.text.lastIndexOf('\n', start - 1) + 1;
  let out = '';
  for (let i = 0; i < src.text.length; i++) {
    const ch = src.text[i] as string;
    if (ch === '\n') out += '\n';
    else if (i >= lineStart && i < start) out += ' ';
    else if (i >= start && i < end) out += ch;
  }
  scan.found.push({ text: out, role, where, line });
}

/** Some node under `node` was written outside its text (an alias's anchor, a merged map). */
function reachesOutside(node: unknown, start: number, end: number): boolean {
  const stack: unknown[] = [node];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || typeof n !== 'object' || seen.has(n)) continue;
    seen.add(n);
    const r = (n as Node).range;
    if (r && (r[0] < start || r[1] > end)) return true;
    if (isMap(n)) for (const p of n.items) stack.push(p.key, p.value);
    else if (isSeq(n)) stack.push(...n.items);
  }
  return false;
}

/** Parsed as written, or with templates masked when that reads more documents. */
function parseLenient(text: string): { docs: YamlDoc[]; lc: LineCounter; masked: boolean } {
  const parse = (t: string) => {
    const lc = new LineCounter();
    // A List's items are documents of their own: the readers see them, as they see the file's documents.
    return { docs: readYaml(t, lc, { lists: true }), lc, masked: t !== text };
  };
  const plain = parse(text);
  const broken = (d: YamlDoc[]) => d.filter((x) => x.errors.length > 0).length;
  if (broken(plain.docs) === 0) return plain;
  const masked = parse(maskTemplates(text));
  return broken(masked.docs) < broken(plain.docs) ? masked : plain;
}
