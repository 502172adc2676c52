import { describe, expect, it } from 'vitest';
import { parseBicep } from '../../../../src/detect/bicep/grammar.js';
import { caseTree, REAL_CASES } from '../../real-cases.js';
import { edited } from '../../real-fixtures.js';
import { seeded } from '../metamorphic.js';
import { plain } from '../variant-tree.js';
import { BICEP_STRUCTURE } from './bicep-structure.js';
import { BICEP_VALUES } from './bicep-values.js';

/** A parameter file read as the grammar of templates reads it (`param x = v` is `var x = v`; `using` aside). */
const asTemplate = (path: string, text: string): string =>
  path.endsWith('.bicepparam') ? text.replace(/^\s*using\s.*$/m, '').replace(/^param\s/gm, 'var ') : text;

/**
 * The Bicep families write Bicep: every file they change still parses, and each applies to a
 * real case, so a family that silently stops applying (or writes broken Bicep the reader would
 * call unreadable, a "not followed" that proves nothing) fails here.
 */
describe.each([...BICEP_VALUES, ...BICEP_STRUCTURE])('$id', (rewrite) => {
  it('changes Bicep files of a real case and keeps them parseable', async () => {
    let applied = 0;
    for (const c of REAL_CASES) {
      const base = caseTree(c);
      const sides = { base: plain(base), head: plain(edited(base, c.edits)) };
      const out = await rewrite.apply(sides, c, seeded(5));
      if (out === null) continue;
      applied++;
      for (const [path, text] of Object.entries(out.head.files)) {
        if (!/\.bicep(param)?$/.test(path) || sides.head.files[path] === text) continue;
        const parsed = parseBicep(asTemplate(path, text));
        expect('tree' in parsed && !parsed.tree.rootNode.hasError, `${c.id}: ${path}`).toBe(true);
      }
    }
    expect(applied).toBeGreaterThan(0);
  });
});

describe('bicep-pool-for-two', () => {
  it('names each copy of a pool apart and indexes the uses of its symbol', async () => {
    const rewrite = BICEP_STRUCTURE.find((r) => r.id === 'bicep-pool-for-two');
    const text =
      "resource c 'Microsoft.ContainerService/managedClusters@2024-01-01' existing = {\n  name: 'c'\n}\n\nresource p 'Microsoft.ContainerService/managedClusters/agentPools@2024-01-01' = {\n  parent: c\n  name: 'gpu'\n  properties: {\n    count: 1\n  }\n}\n\noutput n string = p.name\n";
    const sides = { base: plain({ 'main.bicep': text }), head: plain({ 'main.bicep': text }) };
    const out = await rewrite?.apply(sides, REAL_CASES[0] ?? (undefined as never), seeded(1));
    const head = out?.head.files['main.bicep'] ?? '';
    expect(head).toContain("= [for gjI in range(0, 2): {\n  parent: c\n  name: 'gpu-${gjI}'");
    expect(head).toContain('}]\n\noutput n string = p[0].name');
  });
});
