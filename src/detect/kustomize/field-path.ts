import { fail, ok, type Result } from '../../domain/result.js';
import { isObject, jsonText } from './patch-apply.js';
import type { Json, JsonObject } from './patch-apply.js';

/**
 * Kustomize's field paths (`spec.limits.nvidia\.com/gpu`, `spec.resourceGroups.0.flavors.[name=a100]`,
 * `spec.*.x`) as kyaml splits and walks them (utils.SmarterPathSplitter, yaml.PathMatcher), over
 * plain objects. What kyaml would do that this walk does not (a path into YAML held in a string,
 * a list match whose value is more than a plain name) is `unknown`, never a guess.
 */

export type Segment =
  { kind: 'field'; key: string } | { kind: 'index'; index: number } | { kind: 'match'; field: string; value: string } | { kind: 'every' };

/** A path split as kyaml splits it: `.` separates, `\.` escapes one, `[a.b]` is one key, `[k=v]` a list match. */
export function splitFieldPath(path: string): Segment[] {
  let parts = path.split('.');
  if (parts.length > 1 && parts[0] === '') parts = parts.slice(1);
  const escaped: string[] = [];
  for (const part of parts) {
    const last = escaped.length - 1;
    if (last >= 0 && escaped[last]?.endsWith('\\')) escaped[last] = `${escaped[last].slice(0, -1)}.${part}`;
    else escaped.push(part);
  }
  const out: Segment[] = [];
  for (let i = 0; i < escaped.length; i++) {
    let elem = escaped[i] ?? '';
    if (elem.startsWith('[') && !elem.endsWith(']')) {
      const bracketed = [elem];
      while (i < escaped.length - 1) {
        i++;
        bracketed.push(escaped[i] ?? '');
        if ((escaped[i] ?? '').endsWith(']')) break;
      }
      elem = bracketed.join('.');
      if (!elem.includes('=')) elem = elem.replace(/^\[+|\]+$/g, '');
    }
    out.push(segmentOf(elem));
  }
  return out;
}

function segmentOf(elem: string): Segment {
  if (/^\d+$/.test(elem) && Number.isSafeInteger(Number(elem))) return { kind: 'index', index: Number(elem) };
  if (elem === '*') return { kind: 'every' };
  if (elem.startsWith('[') && elem.endsWith(']')) {
    const inner = elem.slice(1, -1);
    const eq = inner.indexOf('=');
    if (eq >= 0) return { kind: 'match', field: inner.slice(0, eq), value: inner.slice(eq + 1) };
  }
  return { kind: 'field', key: elem };
}

/** Where a path ends: the container and the key or index of each field it names. */
export interface Slot {
  parent: JsonObject | Json[];
  key: string | number;
}

/**
 * Why a walk stops: `fails` is a walk kustomize refuses (an index past the list's end), `unknown`
 * one this walk does not model.
 */
export type WalkProblem = { kind: 'fails' | 'unknown'; why: string };
export type Walk = Result<Slot[], WalkProblem>;

/**
 * The fields a path names in `root`, as kyaml's PathMatcher finds them; with `create`, missing
 * maps, list items and the last field are made on the way (`options.create`).
 */
export function walkFieldPath(root: JsonObject, segments: readonly Segment[], create: boolean): Walk {
  const slots: Slot[] = [];
  const problem = walk(root, segments, 0, create, slots);
  return problem ? fail(problem) : ok(slots);
}

// A literal name, where Go's and JavaScript's regular expressions agree (a `.` matches any character in both).
const PLAIN = /^[A-Za-z0-9_./-]*$/;

function walk(node: Json, segs: readonly Segment[], i: number, create: boolean, out: Slot[]): WalkProblem | null {
  const seg = segs[i];
  if (seg === undefined) return null;
  const last = i === segs.length - 1;
  const next = (child: Json | undefined, parent: JsonObject | Json[], key: string | number): WalkProblem | null => {
    if (last) {
      out.push({ parent, key });
      return null;
    }
    if (child === undefined) return null;
    if (child === null || typeof child !== 'object')
      return { kind: 'unknown', why: 'the path goes on inside a scalar (YAML held in a string), which is not worked out' };
    return walk(child, segs, i + 1, create, out);
  };
  switch (seg.kind) {
    case 'field': {
      if (!isObject(node)) return Array.isArray(node) ? { kind: 'unknown', why: `the path names a field (${seg.key}) of a list` } : null;
      if (!Object.hasOwn(node, seg.key)) {
        if (!create) return null;
        if (!last) setKey(node, seg.key, emptyFor(segs[i + 1]));
      }
      return next(Object.hasOwn(node, seg.key) ? node[seg.key] : undefined, node, seg.key);
    }
    case 'index': {
      if (!Array.isArray(node)) return { kind: 'unknown', why: `the path names item ${seg.index} of something not a list` };
      if (create && node.length === seg.index && !last) node.push(emptyFor(segs[i + 1]));
      if (seg.index >= node.length && !(create && last && seg.index === node.length))
        return { kind: 'fails', why: `index ${seg.index} specified but only ${node.length} elements found` };
      return next(node[seg.index], node, seg.index);
    }
    case 'match': {
      if (!Array.isArray(node))
        return { kind: 'unknown', why: `the path matches list items ([${seg.field}=${seg.value}]) of something not a list` };
      if (!PLAIN.test(seg.value))
        return { kind: 'unknown', why: `the list match [${seg.field}=${seg.value}] is a pattern this walk does not run` };
      const pattern = new RegExp(seg.value);
      const hits = node.flatMap((item, idx) => {
        const text = seg.field === '' ? scalarText(item) : isObject(item) ? scalarText(item[seg.field]) : null;
        return text !== null && pattern.test(text) ? [idx] : [];
      });
      if (hits.length === 0 && create) {
        node.push(seg.field === '' ? seg.value : objectWith(seg.field, seg.value));
        hits.push(node.length - 1);
      }
      for (const idx of hits) {
        const problem = next(node[idx], node, idx);
        if (problem) return problem;
      }
      return null;
    }
    case 'every': {
      const keys: (string | number)[] = Array.isArray(node) ? node.map((_, idx) => idx) : isObject(node) ? Object.keys(node) : [];
      for (const key of keys) {
        const child = Array.isArray(node) ? node[key as number] : (node as JsonObject)[key as string];
        const problem = next(child, node as JsonObject | Json[], key);
        if (problem) return problem;
      }
      return null;
    }
  }
}

function emptyFor(next: Segment | undefined): Json {
  return next !== undefined && (next.kind === 'index' || next.kind === 'match') ? [] : {};
}

function objectWith(key: string, value: Json): JsonObject {
  const out: JsonObject = {};
  setKey(out, key, value);
  return out;
}

/** Sets a key as data: `__proto__` is a field like any other. */
function setKey(obj: JsonObject, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A scalar's text as YAML holds it; null for maps, lists and absent fields. */
export function scalarText(value: Json | undefined): string | null {
  if (value === undefined || (value !== null && typeof value === 'object')) return null;
  return value === null ? 'null' : jsonText(value);
}

export function readSlot(slot: Slot): Json | undefined {
  return Array.isArray(slot.parent)
    ? slot.parent[slot.key as number]
    : Object.hasOwn(slot.parent, slot.key)
      ? slot.parent[slot.key as string]
      : undefined;
}

export function writeSlot(slot: Slot, value: Json): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else setKey(slot.parent, slot.key as string, value);
}
