import type { Syntax } from './syntax.js';

/**
 * The shape of a text as far as the signal scan needs it, read in one pass: YAML by its parsed
 * structure where it parses, and otherwise (templates, broken files, other formats and unknown
 * languages) by indentation, braces or lines, without parsing:
 * - `masked`: the text with comments blanked (same offsets), so a signal seen in the text but not
 *   in `masked` is in a comment;
 * - `keys`: where each key is written (`gpu_count =`, `acceleratorType:`), for keys that name GPUs;
 * - `points`: the key path at each offset (`spec.template.spec.containers.[].resources.limits`),
 *   for the contexts that show a GPU name to be no capacity (a label, a container's request);
 * - `containers`: the objects the text nests (YAML documents, mappings and items, braced blocks),
 *   with their lines, for the object a parser's declaration stands in;
 * - `overridden`: offsets of YAML pairs whose key the same mapping sets again later. Every reader
 *   that accepts such a mapping keeps the last one, the others refuse the file: what these pairs
 *   say is never applied. sigs.k8s.io/yaml (yaml.go at aadfabb7), which kubectl, Helm, Argo CD and
 *   Flux decode with: YAMLToJSON unmarshals through go-yaml v2, which sets a mapping's keys in turn
 *   ("Duplicate fields are case-sensitively ignored"), while YAMLToJSONStrict and UnmarshalStrict
 *   use go-yaml's strict mode and fail with "key … already set in map"; kustomize (kyaml) refuses too.
 */
export interface Structure {
  masked: string;
  keys: KeyAt[];
  points: PathPoint[];
  containers: Container[];
  overridden: { from: number; to: number }[];
}

/** One element of a key path; `[]` is an item of a list. Shared by every path below it. */
export interface PathNode {
  key: string;
  parent: PathNode | null;
}

interface KeyAt {
  offset: number;
  key: string;
}

/** From `offset` on (to the next point), the path is `path` in container `container`. */
export interface PathPoint {
  offset: number;
  path: PathNode | null;
  container: number;
}

export interface Container {
  /** First and last line (1-based, inclusive). */
  start: number;
  end: number;
  /** Index of the enclosing container; -1 for a document or the file. */
  parent: number;
  /** The key it is the value of (lower case), when it is one. */
  key: string | null;
  /** It holds a `kind` key of its own: a Kubernetes object. */
  hasKind: boolean;
  /**
   * What its own `kind` and `apiVersion` keys say, where they are plain strings: the object's type,
   * however it is written (a `List`'s item, JSON, flow style, quoted keys, an HCL object).
   */
  kindName?: string;
  apiVersion?: string;
  /** A YAML document, or the whole of a file of another kind. */
  document?: true;
}

/** Notes a container's own `kind` or `apiVersion` (keys as written, values unquoted). */
export function noteType(box: Container | undefined, key: string, value: string): void {
  if (box === undefined) return;
  if (key === 'kind') {
    box.hasKind = true;
    box.kindName = value;
  } else if (key === 'apiVersion' || key === 'apiversion') box.apiVersion = value;
}

export const child = (parent: PathNode | null, key: string): PathNode => ({ key, parent });

/** Line starts, for offset → line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export function blank(masked: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (masked[i] !== '\n') masked[i] = ' ';
}

/**
 * Keys in text that is not YAML structure (block scalars, heredocs, TOML, files of unknown kind):
 * `key:`, `key =`, and TOML or INI section headers (`[nodepool.gpu]`).
 */
const PLAIN_KEY = /(?:^|[\s{,[(])(["']?)([A-Za-z_][A-Za-z0-9_./-]*)\1[ \t]*(?::(?![:=])|=(?![=>~]))|^[ \t]*\[\[?()([^\]\n]+)\]/gm;

export function plainKeys(line: string, offset: number, out: Pick<Structure, 'keys'>): void {
  PLAIN_KEY.lastIndex = 0;
  for (let m = PLAIN_KEY.exec(line); m; m = PLAIN_KEY.exec(line)) {
    const key = m[2] ?? m[4] ?? '';
    out.keys.push({ offset: offset + m.index + m[0].indexOf(key), key });
  }
}

/** Text of no known structure: comments are whole lines; keys are `key:` or `key =`. */
export function scanPlain(
  text: string,
  from: number,
  to: number,
  syntax: Syntax,
  out: Structure,
  masked: string[],
  starts: readonly number[],
  path: PathNode | null,
  container: number,
): void {
  const whole =
    out.containers.push({
      start: lineAt(starts, from),
      end: lineAt(starts, Math.max(from, to - 1)),
      parent: container,
      key: null,
      hasKind: false,
      document: true,
    }) - 1;
  out.points.push({ offset: from, path, container: whole });
  let offset = from;
  while (offset < to) {
    let end = text.indexOf('\n', offset);
    if (end < 0 || end > to) end = to;
    const line = text.slice(offset, end);
    const trimmed = line.trimStart();
    if ((syntax.hash && trimmed.startsWith('#')) || trimmed.startsWith('//') || (trimmed.startsWith(';') && !trimmed.startsWith(';;'))) {
      blank(masked, offset, end);
    } else if (syntax.keys) {
      plainKeys(line, offset, out);
    }
    offset = end + 1;
  }
}
