import { afterEach, describe, expect, it } from 'vitest';
import { yamlBombs } from '../helpers/hostile-files.js';
import { detectJson } from './detect-json.js';
import { commitAll, git, tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * YAML built to hold a reader (a billion laughs in a queue's labels, a kustomization or a chart's
 * values; flow collections 200,000 deep), through the CLI on git refs: go-yaml refuses each, so
 * the file is an error and not followed, in seconds. Expanding the aliases took minutes per file
 * (10^12 nodes); the nesting a minute per reader.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('hostile YAML, through the CLI', () => {
  it.each(yamlBombs())(
    '$name: not followed, named, within seconds',
    async (f) => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      git(tmp.path, 'init', '-q');
      await writeFiles(tmp.path, { ...f.shared, [f.path]: f.base });
      const base = commitAll(tmp.path, 'base');
      await writeFiles(tmp.path, { [f.path]: f.head });
      const head = commitAll(tmp.path, 'head');
      const started = Date.now();
      const { json } = await detectJson('--repo', tmp.path, '--base', base, '--head', head);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(json.coverage.find((c) => c.file === f.path)?.state).toBe('not-followed');
      // Never read as the capacity gone: a chart's values that cannot be read leave its queue unknown.
      expect(json.changes.filter((c) => c.gpusAfter === 0)).toEqual([]);
    },
    240_000,
  );
});
