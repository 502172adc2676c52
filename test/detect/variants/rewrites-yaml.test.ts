import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REAL_CASES } from '../real-cases.js';
import type { RealCase } from '../real-cases.js';
import { loadReal } from '../real-fixtures.js';
import { seeded } from './metamorphic.js';
import { numbersBehindMergeKey, quotaBehindAlias, wrapInList, yaml11Numbers } from './rewrites-yaml.js';
import { plain } from './variant-tree.js';
import { kubeDocuments } from './yaml-text.js';

/**
 * The YAML rewrites change nothing Kubernetes applies: read as go-yaml reads (YAML 1.1, merge keys
 * and aliases resolved) and with a List's items taken out as kubectl takes them, every rewritten
 * file of the real cases holds the same objects as before, but for the annotations an anchor sits on.
 */
function objects(text: string): unknown[] {
  const docs = parseAllDocuments(text, { version: '1.1', merge: true });
  if (!Array.isArray(docs)) return [];
  return docs
    .map((d) => d.toJS({ maxAliasCount: -1 }) as unknown)
    .filter((o) => o !== null)
    .flatMap((o) => (isList(o) ? o.items : [o]))
    .map(withoutAnchors)
    .map(asQuantities);
}

/** Whole numbers as Kubernetes reads a quantity: `40` and `"40"` are the same (an anchored annotation value must be a string). */
function asQuantities(o: unknown): unknown {
  if (typeof o === 'string' && /^\d+$/.test(o)) return Number(o);
  if (Array.isArray(o)) return o.map(asQuantities);
  if (typeof o === 'object' && o !== null) return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, asQuantities(v)]));
  return o;
}

function isList(o: unknown): o is { items: unknown[] } {
  return (
    typeof o === 'object' && o !== null && (o as { kind?: unknown }).kind === 'List' && Array.isArray((o as { items?: unknown }).items)
  );
}

/** The object without the annotations quotaBehindAlias anchors its values on (and an annotations map it alone made). */
function withoutAnchors(o: unknown): unknown {
  const metadata = (o as { metadata?: { annotations?: Record<string, unknown> } }).metadata;
  const annotations = metadata?.annotations;
  if (!metadata || !annotations) return o;
  for (const key of Object.keys(annotations)) if (key.startsWith('gpu-justify.test/')) delete annotations[key];
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return o;
}

// The YAML rewrites read only the files, never the case.
const anyCase = REAL_CASES[0] as RealCase;
const files = new Map<string, string>();
for (const c of REAL_CASES)
  for (const [path, text] of Object.entries(loadReal(c.target))) if (kubeDocuments(path, text)) files.set(path, text);

describe.each([wrapInList, quotaBehindAlias, numbersBehindMergeKey, yaml11Numbers])('$id', (rewrite) => {
  it('applies to some file of Kubernetes objects', async () => {
    let applied = 0;
    for (const [path, text] of files)
      if (await rewrite.apply({ base: plain({ [path]: text }), head: plain({ [path]: text }) }, anyCase, seeded(1))) applied++;
    expect(applied).toBeGreaterThan(0);
  });

  it('gives the same objects as go-yaml reads them', async () => {
    for (const [path, text] of files) {
      const out = await rewrite.apply({ base: plain({ [path]: text }), head: plain({ [path]: text }) }, anyCase, seeded(7));
      if (out === null) continue;
      const rewritten = out.head.files[path];
      expect(rewritten, path).toBeDefined();
      expect(rewritten, path).not.toBe(text);
      expect(objects(rewritten ?? ''), path).toEqual(objects(text));
    }
  });
});
