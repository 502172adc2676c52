import { describe, expect, it } from 'vitest';
import { MAX_FILE_CHARS, detectChanges } from './detect-changes.js';
import { detectFile } from './detect-file.js';
import type { CapacityParser } from './parser.js';
import type { ChangeSet, TreeReader } from '../domain/index.js';
import { memoryChangeSet } from '../../test/memory-change-set.js';
import { lineOf, queueYaml } from '../../test/detect/fixtures.js';

class MemoryTree implements TreeReader {
  readonly reads: string[] = [];
  constructor(
    readonly label: string,
    private readonly files: Record<string, string>,
  ) {}
  async read(path: string): Promise<string | null> {
    this.reads.push(path);
    return this.files[path] ?? null;
  }
}

function changeSet(base: Record<string, string>, head: Record<string, string>, paths?: string[]) {
  const b = new MemoryTree('base', base);
  const h = new MemoryTree('head', head);
  const set: ChangeSet = {
    base: b,
    head: h,
    changedPaths: async () => paths ?? [...new Set([...Object.keys(base), ...Object.keys(head)])],
  };
  return { set, base: b, head: h };
}

const q = (name: string, gpus: string, cohort?: string) =>
  queueYaml({ name, flavors: [['default', 'nvidia.com/gpu', gpus]], ...(cohort ? { cohort } : {}) });

describe('detectChanges', () => {
  it('compares every changed file at base and head, across files', async () => {
    const { set } = changeSet(
      {
        'clusters/prod/research.yaml': q('research', '4'),
        'clusters/prod/old.yaml': q('retired', '2'),
        'clusters/prod/moving.yaml': q('mover', '8'),
      },
      {
        'clusters/prod/research.yaml': q('research', '"8"', 'org'),
        'clusters/prod/new.yaml': q('fresh', '2'),
        'clusters/prod/moved/mover.yaml': q('mover', '8'),
      },
    );
    const { changes, diagnostics } = await detectChanges(set);
    expect(diagnostics).toEqual([]);
    expect(changes.map((c) => [c.file, c.name, c.gpusBefore, c.gpusAfter, c.delta])).toEqual([
      ['clusters/prod/new.yaml', 'fresh', 0, 2, 2],
      ['clusters/prod/old.yaml', 'retired', 2, 0, -2],
      ['clusters/prod/research.yaml', 'research', 4, 8, 4],
    ]);
    expect(changes[2]?.after?.cohort).toBe('org');
    expect(changes[2]?.line).toBe(lineOf(q('research', '"8"', 'org'), 'nominalQuota'));
  });

  it("returns head-side diagnostics and drops the base side's", async () => {
    const broken = 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: x}\nspec: [\n';
    const { set } = changeSet(
      { 'a.yaml': broken, 'b.yaml': q('b', '1') },
      { 'a.yaml': q('x', '1'), 'b.yaml': broken.replace('name: x', 'name: b') },
    );
    const { diagnostics } = await detectChanges(set);
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file)).toEqual(['b.yaml']);
  });

  it('reports no change for a quota turned into a template: the warning naming it, and an error that the change is unknown', async () => {
    const { set } = changeSet({ 'q.yaml': q('research', '8') }, { 'q.yaml': q('research', '"{{ .Values.gpus }}"') });
    const { changes, diagnostics } = await detectChanges(set);
    expect(changes).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.severity])).toEqual([
      ['q.yaml', 'warning'],
      ['q.yaml', 'error'],
    ]);
    expect(diagnostics[0]?.message).toContain('{{ .Values.gpus }}');
    expect(diagnostics[1]?.message).toMatch(
      /^research: the GPU count after this change could not be read \(it was 8 GPUs at q\.yaml:\d+\)/,
    );
  });

  it('warns that the change is unknown when the base quota was unreadable', async () => {
    const { set } = changeSet({ 'q.yaml': q('research', '"{{ .Values.gpus }}"') }, { 'q.yaml': q('research', '16') });
    const { changes, diagnostics } = await detectChanges(set);
    expect(changes).toEqual([]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ file: 'q.yaml', severity: 'warning' });
    expect(diagnostics[0]?.message).toMatch(/before this change .* could not be read.*16 GPUs/);
  });

  it('reads every changed path once per side: parsers take some, the floor scans all', async () => {
    const { set, base, head } = changeSet({ 'q.yaml': q('a', '1') }, { 'q.yaml': q('a', '2'), 'src/app.ts': 'const ClusterQueue = 1;' }, [
      'q.yaml',
      'src/app.ts',
      'q.yaml',
    ]);
    const { changes, coverage } = await detectChanges(set);
    expect(changes.map((c) => c.delta)).toEqual([1]);
    expect([...base.reads].sort()).toEqual(['q.yaml', 'src/app.ts']);
    expect([...head.reads].sort()).toEqual(['q.yaml', 'src/app.ts']);
    expect(coverage.map((c) => [c.file, c.state])).toEqual([
      ['q.yaml', 'read'],
      ['src/app.ts', 'not-capacity'],
    ]);
  });

  it('lets reader failures propagate instead of reporting a clean result', async () => {
    const failing: TreeReader = {
      label: 'head',
      read: async () => {
        throw new Error('rate limited');
      },
    };
    const set: ChangeSet = { base: new MemoryTree('base', {}), head: failing, changedPaths: async () => ['q.yaml'] };
    await expect(detectChanges(set)).rejects.toThrow('rate limited');
  });

  it('returns nothing when nothing relevant changed', async () => {
    const { set } = changeSet({ 'q.yaml': q('a', '4') }, { 'q.yaml': q('a', '4').replace('metadata:', '# edited\nmetadata:') });
    expect(await detectChanges(set)).toEqual({ changes: [], diagnostics: [], coverage: [{ file: 'q.yaml', state: 'read', objects: 1 }] });
  });
});

describe('detectFile', () => {
  it('merges results of every parser that claims the file and survives one that throws', () => {
    const fixed: CapacityParser = {
      id: 'fixed',
      mightContain: () => true,
      parse: (path) => ({
        decls: [{ file: path, line: 1, kind: 'gpu-sharing', name: 'x', gpuModel: null, gpus: 1, parts: [] }],
        diagnostics: [],
      }),
    };
    const shy: CapacityParser = {
      id: 'shy',
      mightContain: () => false,
      parse: () => {
        throw new Error('parsed without claiming');
      },
    };
    const broken: CapacityParser = {
      id: 'broken',
      mightContain: () => true,
      parse: () => {
        throw new Error('boom');
      },
    };
    const result = detectFile('f.yaml', 'anything', [fixed, shy, broken]);
    expect(result.decls.map((d) => d.name)).toEqual(['x']);
    expect(result.diagnostics).toEqual([{ file: 'f.yaml', line: null, severity: 'error', message: 'broken parser failed: boom' }]);
  });

  it('uses the registry by default', () => {
    expect(detectFile('q.yaml', q('a', '3')).decls.map((d) => d.gpus)).toEqual([3]);
    expect(detectFile('notes.txt', q('a', '3')).decls).toEqual([]);
  });
});

describe('files too large to read', () => {
  it('reports a huge file that could hold capacity instead of parsing it, and passes over one that cannot', async () => {
    const padding = `# ${'x'.repeat(MAX_FILE_CHARS)}\n`;
    const queue =
      'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: q\nspec:\n  resourceGroups:\n  - coveredResources: ["nvidia.com/gpu"]\n    flavors:\n    - name: f\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: 8\n';
    const result = await detectChanges(
      memoryChangeSet(
        {},
        {
          'big-queue.yaml': queue + padding,
          'big-notes.yaml': padding,
          'big.tf': `resource "google_container_node_pool" "p" {}\n${padding}`,
        },
      ),
    );
    expect(result.changes).toEqual([]);
    expect(result.diagnostics.map((d) => [d.file, d.severity])).toEqual([
      ['big-queue.yaml', 'error'],
      ['big.tf', 'error'],
    ]);
    expect(result.diagnostics[0]?.message).toMatch(/^1\.0 MB, over the 1\.0 MB gpu-justify reads: its GPU capacity was not checked$/);
  });
});
