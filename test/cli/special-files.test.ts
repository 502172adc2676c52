import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { detectJson } from './detect-json.js';
import { tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * What a directory may hold beside files and links, and links of odd shapes, in directory mode:
 * a named pipe at a capacity file's path (or a link to one) would hold the read for ever, and a
 * link to `/proc/self/…` or a device reads what is not the repository. Each is an error on its
 * own path, the run finishing; so are a chain of 40 links, a link leaving the tree and coming
 * back, and a `..` taken through a linked directory. Never the queue removed, never a count read.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

type Arrange = (head: string, root: string) => Promise<void>;

const shapes: [string, Arrange][] = [
  ['a named pipe in its place', async (head) => void execFileSync('mkfifo', [join(head, QUEUE_FILE)])],
  [
    'a link to a named pipe beside it',
    async (head) => {
      execFileSync('mkfifo', [join(head, 'clusters/prod/pipe.src')]);
      await symlink('pipe.src', join(head, QUEUE_FILE));
    },
  ],
  ['a link to /proc/self/environ', (head) => symlink('/proc/self/environ', join(head, QUEUE_FILE))],
  // fixture path: data, never read
  [
    'a link climbing out to /proc/self',
    (head) => symlink('../../../../../../../../../../proc/self/cwd/queues.yaml', join(head, QUEUE_FILE)), // hostile link target: data, never read
  ],
  ['a link to /dev/zero', (head) => symlink('/dev/zero', join(head, QUEUE_FILE))],
  [
    'a chain of 40 links',
    async (head) => {
      await writeFiles(head, { 'clusters/prod/l0.src': clusterQueue(600) });
      for (let i = 1; i <= 40; i++) await symlink(`l${i - 1}.src`, join(head, `clusters/prod/l${i}.src`));
      await symlink('l40.src', join(head, QUEUE_FILE));
    },
  ],
  [
    'a link leaving the tree and coming back',
    async (head, root) => {
      await writeFiles(head, { 'clusters/prod/big.src': clusterQueue(600) });
      await mkdir(join(root, 'out'), { recursive: true });
      // hostile link target: data, never read
      await symlink('../head/clusters/prod/big.src', join(root, 'out/hop.src'));
      // hostile link target: data, never read
      await symlink('../../../out/hop.src', join(head, QUEUE_FILE)); // hostile link target: data, never read
    },
  ],
];

describe('not a file, in directory mode', () => {
  it.each(shapes)(
    '%s: an error on the file, the run finishing',
    async (_name, arrange) => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      const [base, head] = [join(tmp.path, 'base'), join(tmp.path, 'head')];
      await writeFiles(base, { [QUEUE_FILE]: clusterQueue(6) });
      await mkdir(join(head, 'clusters/prod'), { recursive: true });
      await arrange(head, tmp.path);

      const { json } = await detectJson('--base', base, '--head', head);

      expect(json.diagnostics.filter((d) => d.file === QUEUE_FILE && d.severity === 'error')).toHaveLength(1);
      expect(json.coverage.find((c) => c.file === QUEUE_FILE)?.state).toBe('not-followed');
      expect(json.changes.filter((c) => c.gpusAfter !== c.gpusBefore)).toEqual([]);
    },
    20_000,
  );
});
