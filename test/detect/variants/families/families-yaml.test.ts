import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { caseTree, REAL_CASES } from '../../real-cases.js';
import { edited } from '../../real-fixtures.js';
import type { Tree } from '../../real-fixtures.js';
import { seeded } from '../metamorphic.js';
import { plain } from '../variant-tree.js';
import { yamlComplexKeys, yamlExplicitTags, yamlFlowTabs, yamlTaggedKeys } from './yaml-syntax.js';
import { yamlTabComments } from './unusual/yaml-documents.js';

/**
 * The YAML syntax families change nothing Kubernetes applies: read as go-yaml reads (YAML 1.1,
 * merge keys and aliases resolved), every real case's files hold the same objects, in the same
 * order, after the rewrite as before.
 */
function objects(tree: Tree): string[] {
  const out: string[] = [];
  for (const [path, text] of Object.entries(tree).sort(([a], [b]) => a.localeCompare(b))) {
    const docs = parseAllDocuments(text, { version: '1.1', merge: true });
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) {
      out.push(`${path}: does not parse`);
      continue;
    }
    for (const d of docs) out.push(JSON.stringify(d.toJS({ maxAliasCount: -1 })));
  }
  return out;
}

const touched = (before: Tree, after: Tree): [Tree, Tree] => {
  const only = (a: Tree, b: Tree) => Object.fromEntries(Object.entries(a).filter(([p, t]) => b[p] !== t));
  return [only(before, after), only(after, before)];
};

describe.each([yamlExplicitTags, yamlTaggedKeys, yamlComplexKeys, yamlFlowTabs, yamlTabComments])('$id', (rewrite) => {
  it('keeps the objects of every real case, as go-yaml reads them', async () => {
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
