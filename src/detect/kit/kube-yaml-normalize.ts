import { isAlias, isMap, isScalar, isSeq, Scalar } from 'yaml';
import type { Alias, LineCounter, Node, Pair, YAMLMap } from 'yaml';
import { jsonKey, resolvePlain, resolveTagged, YAML_TAG } from './go-yaml-scalar.js';
import type { GoScalar } from './go-yaml-scalar.js';

/**
 * The applier's reading of one parsed document (kube-yaml.ts): aliases replaced by their anchors,
 * merge keys applied, repeated keys resolved, scalars given their go-yaml values, and what the
 * applier would refuse or read differently noted as problems.
 */

/** Why a document cannot be read, at an offset of the text. */
export interface YamlProblem {
  message: string;
  pos: [number, number];
}

/**
 * - `kubectl`: go-yaml v2 as kubectl, Helm (values and rendered output), Argo CD and Flux's
 *   decoding read it.
 * - `kustomize`: kyaml for files kustomize builds: repeated keys are errors, a map's own keys win
 *   over merged ones; scalars are still read as kubectl reads the built output.
 * - `go-yaml-v3`: programs reading YAML with go-yaml v3 (gcluster): as kustomize, and only
 *   `true`/`false` are booleans.
 */
export type YamlDialect = 'kubectl' | 'kustomize' | 'go-yaml-v3';

/** go-yaml v2's limit on alias expansion (decode.go allowedAliasRatio). */
function allowedAliasRatio(decodes: number): number {
  if (decodes <= 400_000) return 0.99;
  if (decodes >= 4_000_000) return 0.1;
  return 0.99 - (0.89 * (decodes - 400_000)) / 3_600_000;
}

/** Each alias's anchor: the last node with that anchor before it in document order. */
export function anchorTargets(root: unknown): Map<Alias, Node> {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node, target);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const anchor = (node as Node).anchor;
    if (anchor) anchors.set(anchor, node as Node);
    if (isMap(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const pair = node.items[i];
        stack.push(pair?.value, pair?.key);
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return targets;
}

/** A map key as go-yaml holds it (its Go type and value) and as JSON spells it. */
interface KeyOf {
  go: string;
  json: string;
}

const scalarOf = new WeakMap<Scalar, GoScalar>();

function goIdentity(s: GoScalar): string {
  return `${s.type}:${String(s.value)}`;
}

export class Normalizer {
  readonly problems: YamlProblem[] = [];
  private readonly done = new WeakSet<object>();
  private readonly active = new WeakSet<object>();
  private readonly keys = new WeakMap<Pair, KeyOf>();
  private readonly sizes = new WeakMap<object, [expanded: number, aliased: number]>();
  /** Pairs a merge key brought in (set before a map's own key, kubectl and kustomize agree). */
  private readonly merging = new WeakSet<Pair>();
  /** Pairs a merge key brought into the map being read. */
  constructor(
    private readonly targets: ReadonlyMap<Alias, Node>,
    private readonly dialect: YamlDialect,
    private readonly lc: LineCounter,
  ) {}

  private problem(at: unknown, fallback: number, message: string): void {
    const r = (at as Node | null)?.range;
    const pos = r ? r[0] : fallback;
    this.problems.push({ message, pos: [pos, pos + 1] });
  }

  /** The node resolved: aliases replaced by their (normalised) anchors. */
  value(node: unknown, at: number): unknown {
    if (isAlias(node)) {
      const target = this.targets.get(node);
      if (target === undefined) {
        this.problem(node, at, `unknown anchor '${node.source}' referenced`);
        return null;
      }
      if (this.active.has(target)) {
        this.problem(node, at, `anchor '${node.source}' value contains itself`);
        return null;
      }
      return this.value(target, at);
    }
    if (node === null || typeof node !== 'object' || this.done.has(node) || isTemplate(node)) return node;
    this.active.add(node);
    if (isScalar(node)) this.scalar(node, at);
    else if (isSeq(node)) node.items = node.items.map((item) => this.finite(this.value(item, at), at));
    else if (isMap(node)) this.map(node, at);
    this.active.delete(node);
    this.done.add(node);
    return node;
  }

  /** JSON has no NaN or infinities: sigs.k8s.io/yaml fails the document on them. */
  private finite(node: unknown, at: number): unknown {
    if (isScalar(node) && typeof node.value === 'number' && !Number.isFinite(node.value)) {
      this.problem(node, at, `json: unsupported value: ${String(node.value)}`);
    }
    return node;
  }

  private scalar(s: Scalar, at: number): void {
    const text = typeof s.source === 'string' ? s.source : String(s.value);
    let r: GoScalar;
    if (s.tag !== undefined && s.tag !== '!') {
      const t = resolveTagged(s.tag, text);
      if ('error' in t) {
        this.problem(s, at, t.error);
        r = { type: 'str', value: text };
      } else r = t;
    } else if (s.tag === undefined && s.type === Scalar.PLAIN) {
      r = resolvePlain(text, this.dialect === 'go-yaml-v3');
    } else {
      r = { type: 'str', value: text };
    }
    s.value = r.value;
    scalarOf.set(s, r);
  }

  private key(pair: Pair, at: number): KeyOf | null {
    const node = this.value(pair.key, at);
    if (!isScalar(node)) {
      this.problem(
        pair.key ?? pair.value,
        at,
        node === null || node === undefined ? 'unsupported map key: null' : 'invalid map key: a map or a list',
      );
      return null;
    }
    const go = scalarOf.get(node) ?? { type: 'str', value: String(node.value) };
    const json = jsonKey(go);
    if (json === null) {
      this.problem(node, at, `unsupported map key of type ${go.type}: ${String(go.value)}`);
      return null;
    }
    // A key that is not a string becomes one in JSON; a copy, since an alias may use the same node as a value.
    if (node.value !== json) {
      const copy = new Scalar(json);
      if (node.range) copy.range = node.range;
      pair.key = copy;
    } else pair.key = node;
    return { go: goIdentity(go), json };
  }

  private map(m: YAMLMap, at: number): void {
    const own = new Map<string, Pair>();
    const ownKey = new Map<string, KeyOf>();
    const merged: Pair[][] = [];
    // kubectl (go-yaml v2): keys and merges apply in the order written, a later one overwriting.
    const ordered = new Map<string, Pair>();
    let merges = 0;
    for (const pair of m.items) {
      if (isMergeKey(pair.key)) {
        merges++;
        const sources = this.mergeSources(pair.value, at);
        merged.push(sources.flat());
        // Within a list of maps the earlier map wins: go-yaml applies them from the last.
        for (const source of [...sources].reverse()) for (const p of source) this.put(ordered, p, true, at);
        continue;
      }
      const key = this.key(pair, at);
      if (key === null) continue;
      this.keys.set(pair, key);
      pair.value = this.finite(this.value(pair.value, at), at);
      const seen = own.get(key.json);
      if (seen !== undefined && this.dialect !== 'kubectl') {
        const first = (seen.key as Node | null)?.range?.[0];
        const where = first === undefined ? '' : ` at line ${this.lc.linePos(first).line}`;
        this.problem(pair.key, at, `mapping key "${key.json}" already defined${where}: kustomize rejects repeated keys`);
      }
      own.set(key.json, pair);
      ownKey.set(key.json, key);
      this.put(ordered, pair, false, at);
    }
    if (merges > 1 && this.dialect !== 'kubectl') this.problem(m, at, 'duplicate merge key');
    if (this.dialect === 'kubectl') {
      m.items = [...ordered.values()];
      return;
    }
    // kyaml: merged maps first (the earlier of a list winning), then the map's own keys over them.
    const result = new Map<string, Pair>();
    for (const group of merged.reverse()) for (const p of [...group].reverse()) result.set(this.keys.get(p)?.json ?? '', p);
    for (const [k, p] of own) {
      result.delete(k);
      result.set(k, p);
    }
    m.items = [...result.values()];
  }

  /** Sets a pair, noting what kubectl and kustomize would read differently or not at all. */
  private put(into: Map<string, Pair>, pair: Pair, fromMerge: boolean, at: number): void {
    const key = this.keys.get(pair);
    if (key === undefined) return;
    const seen = into.get(key.json);
    if (seen !== undefined) {
      const seenKey = this.keys.get(seen);
      if (seenKey !== undefined && seenKey.go !== key.go) {
        this.problem(
          pair.key,
          at,
          `keys ${seenKey.go} and ${key.go} are both "${key.json}" in JSON: which one kubectl keeps is not defined`,
        );
      } else if (fromMerge && this.dialect === 'kubectl' && !this.merging.has(seen) && !sameValue(seen.value, pair.value)) {
        this.problem(
          seen.key,
          at,
          `"${key.json}" is set before a merge key that sets it again: kubectl keeps the merged value, kustomize and the YAML spec this one`,
        );
      }
      into.delete(key.json);
    }
    if (fromMerge) this.merging.add(pair);
    into.set(key.json, pair);
  }

  /** The pairs `<<` brings in, one list per map merged, in the order written. */
  private mergeSources(value: unknown, at: number): Pair[][] {
    const node = this.value(value, at);
    const pairs = (m: YAMLMap) => m.items.filter((p) => this.keys.has(p));
    if (isMap(node)) return [pairs(node)];
    if (isSeq(node) && node.items.every((i) => isMap(i))) return node.items.map((i) => pairs(i));
    this.problem(value, at, 'map merge requires map or sequence of maps as the value');
    return [];
  }

  /** go-yaml v2's guard against alias bombs, over the whole document: true (and a problem noted) when it trips. */
  checkAliasing(root: unknown): boolean {
    const [decodes, aliased] = this.size(root, new WeakSet());
    if (aliased > 100 && decodes > 1000 && aliased / decodes > allowedAliasRatio(decodes)) {
      this.problem(root, 0, 'document contains excessive aliasing');
      return true;
    }
    return false;
  }

  /** Nodes go-yaml decodes for this one, and how many of them through an alias. */
  private size(node: unknown, open: WeakSet<object>): [number, number] {
    if (node === null || typeof node !== 'object') return [1, 0];
    const known = this.sizes.get(node);
    if (known) return known;
    if (open.has(node)) return [1, 0];
    open.add(node);
    let result: [number, number] = [1, 0];
    if (isAlias(node)) {
      const target = this.targets.get(node);
      const [n] = target ? this.size(target, open) : [0];
      result = [1 + n, n];
    } else if (isMap(node) || isSeq(node)) {
      const children: unknown[] = isMap(node) ? node.items.flatMap((p) => [p.key, p.value]) : node.items;
      for (const c of children) {
        const [n, a] = this.size(c, open);
        result = [result[0] + n, result[1] + a];
      }
    }
    this.sizes.set(node, result);
    return result;
  }
}

/**
 * `{{ .Values.x }}` parses as a flow map keyed by a flow map: a Helm or Go template, not YAML
 * any applier reads. It is left as written, for the readers to name the expression.
 */
function isTemplate(node: unknown): boolean {
  if (!isMap(node) || !node.flow || node.items.length !== 1) return false;
  const key = node.items[0]?.key;
  return isMap(key) && key.flow === true;
}

function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  const text = typeof key.source === 'string' ? key.source : String(key.value);
  return text === '<<' && ((key.tag === undefined && key.type === Scalar.PLAIN) || key.tag === `${YAML_TAG}merge`);
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));
}

/** A normalised node as the JSON the applier sends: maps to objects, lists to arrays, scalars to their values. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function toJson(node: unknown): Json {
  if (isScalar(node)) {
    const v = node.value;
    return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
  }
  if (isSeq(node)) return node.items.map(toJson);
  if (isMap(node)) {
    const out: { [key: string]: Json } = {};
    for (const p of node.items) {
      const k = isScalar(p.key) ? String(p.key.value) : null;
      // Defined, not assigned: a key `__proto__` is data, as it is to Go.
      if (k !== null) Object.defineProperty(out, k, { value: toJson(p.value), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return null;
}
