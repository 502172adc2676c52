import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { caseTree, REAL_CASES } from '../../real-cases.js';
import { edited } from '../../real-fixtures.js';
import type { Tree } from '../../real-fixtures.js';
import { seeded } from '../metamorphic.js';
import { plain } from '../variant-tree.js';
import { SHAPES } from './index.js';

/**
 * The YAML and file shapes change nothing Kubernetes applies: read as go-yaml reads (YAML 1.1,
 * merge keys and aliases resolved, the last of a repeated key kept), lists within lists taken
 * out, a quantity's string read as its number, every real case's head holds the same objects
 * after the rewrite as before, but for the annotation one of them adds.
 */
const isFile = (p: string) =>
  !/(^|\/)(kustomization\.ya?ml|Chart\.yaml|values\.yaml)$/.test(p) && !/\.(tf|tfvars|bicep|bicepparam|ts)$/.test(p);

function objects(tree: Tree): string[] {
  return Object.entries(tree)
    .flatMap(([path, text]) => objectsOfFile(path, text))
    .sort();
}

/**
 * The objects of one file, normalised; memoised by path and text. Every shape is checked
 * against the same unrewritten files of every case, which are parsed once for all of them.
 */
const fileObjects = new Map<string, readonly string[]>();
function objectsOfFile(path: string, text: string): readonly string[] {
  const key = `${path}\u0000${text}`;
  const known = fileObjects.get(key);
  if (known !== undefined) return known;
  const out: unknown[] = [];
  if (isFile(path) && !text.includes('{{')) {
    const docs = parseAllDocuments(text.replace(/^\ufeff/, ''), { version: '1.1', merge: true, uniqueKeys: false });
    if (Array.isArray(docs) && !docs.some((d) => d.errors.length > 0)) {
      for (const d of docs) out.push(...unwrap(d.toJS({ maxAliasCount: -1 }) as unknown));
    }
  }
  const found = out.filter((o) => typeof o === 'object' && o !== null && 'kind' in o).map((o) => JSON.stringify(normal(o)));
  fileObjects.set(key, found);
  return found;
}

function unwrap(o: unknown): unknown[] {
  const items = (o as { items?: unknown } | null)?.items;
  return typeof o === 'object' && o !== null && Array.isArray(items) && String((o as { kind?: unknown }).kind).endsWith('List')
    ? items.flatMap(unwrap)
    : [o];
}

/** A YAML 1.1 timestamp written out (`2025-11-30T01:02:03Z`, `2001-12-14`), with its zone if any. */
const TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:[Tt ]\d\d?:\d\d:\d\d(?:\.\d+)?\s*(Z|[+-]\d\d?(?::?\d\d)?)?)?$/;

/**
 * Keys in order, whole-number strings as numbers, the added annotation out, and a timestamp as
 * the instant it names: read here it is a date, while go-yaml (and a rewrite writing JSON) keeps
 * the text, and rewrites that print YAML may write the same instant another way.
 */
function normal(o: unknown): unknown {
  if (o instanceof Date) return o.toISOString();
  if (typeof o === 'string' && TIMESTAMP.test(o)) {
    const zoned = /[Tt ]/.test(o) && TIMESTAMP.exec(o)?.[1] === undefined ? `${o}Z` : o;
    const at = new Date(zoned.replace(' ', 'T'));
    if (!Number.isNaN(at.getTime())) return at.toISOString();
  }
  if (typeof o === 'string' && /^\d+$/.test(o)) return Number(o);
  if (Array.isArray(o)) return o.map(normal);
  if (typeof o !== 'object' || o === null) return o;
  const entries = Object.entries(o)
    .filter(([k]) => k !== 'gpu-justify.test/sizing')
    .map(([k, v]): [string, unknown] => [k, normal(v)])
    .filter(([k, v]) => !(k === 'annotations' && typeof v === 'object' && v !== null && Object.keys(v).length === 0))
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries);
}

// Padding adds comments only (and reading 1 MiB files twice per case is slow).
/** The objects of the files a rewrite touched, before and after it (the others are the same text). */
function touched(before: Tree, after: Tree): [string[], string[]] {
  const only = (a: Tree, b: Tree) => Object.fromEntries(Object.entries(a).filter(([p, t]) => b[p] !== t));
  return [objects(only(before, after)), objects(only(after, before))];
}

const YAML_SHAPES = SHAPES.filter((r) => !r.id.startsWith('tf-') && r.id !== 'pad-under-limit');

describe.each(YAML_SHAPES)('$id', (rewrite) => {
  it('keeps the objects every real case applies, as go-yaml reads them', async () => {
    let applied = 0;
    for (const c of REAL_CASES) {
      const base = caseTree(c);
      const sides = { base: plain(base), head: plain(edited(base, c.edits)) };
      const out = await rewrite.apply(sides, c, seeded(3));
      if (out === null) continue;
      applied++;
      for (const side of ['base', 'head'] as const) {
        const [before, after] = touched(sides[side].files, out[side].files);
        expect(after, `${c.id} (${side})`).toEqual(before);
      }
    }
    expect(applied).toBeGreaterThan(0);
  });
});
