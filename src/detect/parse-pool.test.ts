import { afterAll, describe, expect, it } from 'vitest';
import { detectChanges } from './detect-changes.js';
import { OFFLOAD_MIN_CHARS, ParsePool } from './parse-pool.js';
import { PARSERS } from './registry.js';
import { FILE_OF, largeFile } from '../../bench/detect-scale/generate.js';
import { memoryChangeSet } from '../../test/memory-change-set.js';

const pool = new ParsePool(1);
afterAll(() => pool.close());

describe('the parse pool', () => {
  it.each(['kueue', 'terraform'] as const)(
    'finds in a worker what detection finds in this thread: a large %s file',
    async (format) => {
      const file = largeFile(format, OFFLOAD_MIN_CHARS * 2);
      const set = () => memoryChangeSet({ [FILE_OF[format]]: file.base }, { [FILE_OF[format]]: file.head });
      const inline = await detectChanges(set(), PARSERS);
      let asked = 0;
      const counting = {
        file: (path: string, text: string) => (asked++, pool.file(path, text)),
        set: (parser: string, files: Parameters<ParsePool['set']>[1]) => (asked++, pool.set(parser, files)),
      };
      const offloaded = await detectChanges(set(), PARSERS, { offload: counting });
      expect(asked).toBeGreaterThan(0);
      expect(inline.changes.length).toBeGreaterThan(10);
      expect(offloaded).toEqual(inline);
    },
    120_000,
  );

  it('a worker that fails makes its file an error, never a file without capacity', async () => {
    const file = largeFile('kueue', OFFLOAD_MIN_CHARS * 2);
    const broken = {
      file: () => Promise.reject(new Error('worker gone')),
      set: () => Promise.reject(new Error('worker gone')),
    };
    const { changes, diagnostics } = await detectChanges(
      memoryChangeSet({ [FILE_OF.kueue]: file.base }, { [FILE_OF.kueue]: file.head }),
      PARSERS,
      { offload: broken },
    );
    expect(changes).toEqual([]);
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toContain('the parse worker failed: worker gone');
  });
});
