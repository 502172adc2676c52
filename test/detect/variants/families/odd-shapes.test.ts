import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { caseTree, REAL_CASES } from '../../real-cases.js';
import { edited } from '../../real-fixtures.js';
import type { Tree } from '../../real-fixtures.js';
import { seeded } from '../metamorphic.js';
import { plain } from '../variant-tree.js';
import { escaped, yamlEscapedIdentity, yamlEscapedKeys, yamlEscapedValues } from './yaml-hidden-names.js';
import { yamlMergeOverridden, yamlMergeSequence } from './yaml-merges.js';
import { yamlDirectives, yamlNullDocuments, yamlTagDirective, yamlUnusedAnchors } from './yaml-streams.js';

/**
 * The stream and name families change nothing Kubernetes applies: read as a YAML 1.1 reader with
 * merge keys reads them (documents that hold nothing skipped), every real case's files hold the
 * same objects, in the same order, after the rewrite as before.
 */
/** Objects' keys in order: a merge key moves where a key is written, not what the object holds. */
const sortedKeys = (_key: string, v: unknown): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
    : v;

function objects(tree: Tree): string[] {
  const out: string[] = [];
  for (const [path, text] of Object.entries(tree).sort(([a], [b]) => a.localeCompare(b))) {
    const docs = parseAllDocuments(text, { version: '1.1', merge: true });
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) {
      out.push(`${path}: does not parse`);
      continue;
    }
    for (const d of docs) {
      const value: unknown = d.toJS({ maxAliasCount: -1 });
      if (value !== null) out.push(JSON.stringify(value, sortedKeys));
    }
  }
  return out;
}

const touched = (before: Tree, after: Tree): [Tree, Tree] => {
  const only = (a: Tree, b: Tree) => Object.fromEntries(Object.entries(a).filter(([p, t]) => b[p] !== t));
  return [only(before, after), only(after, before)];
};

describe.each([
  yamlEscapedKeys,
  yamlEscapedValues,
  yamlEscapedIdentity,
  yamlDirectives,
  yamlTagDirective,
  yamlNullDocuments,
  yamlUnusedAnchors,
  yamlMergeOverridden,
  yamlMergeSequence,
])('$id', (rewrite) => {
  it('keeps the objects of every real case', async () => {
    let applied = 0;
    for (const c of REAL_CASES) {
      const base = caseTree(c);
      const sides = { base: plain(base), head: plain(edited(base, c.edits)) };
      const out = await rewrite.apply(sides, c, seeded(3));
      if (out === null) continue;
      applied++;
      for (const side of ['base', 'head'] as const) {
        const [before, after] = touched(sides[side].files, out[side].files);
        expect(Object.keys(after), `${c.id} (${side})`).toEqual(Object.keys(before));
        expect(objects(after), `${c.id} (${side})`).toEqual(objects(before));
      }
    }
    expect(applied).toBeGreaterThan(0);
  });
});

describe('escaped', () => {
  it('hides every separator of a name, or its first letter, and reads back as the name', () => {
    for (const name of ['nvidia.com/gpu', 'g5.xlarge', 'a2-highgpu-1g', 'nominalQuota', 'say "hi"', 'ü']) {
      const text = escaped(name);
      expect(parseAllDocuments(`k: ${text}`)[0]?.toJS()).toEqual({ k: name });
      if (/^[\x20-\x7e]+$/.test(name)) expect(text.includes(name)).toBe(false);
    }
  });
});
