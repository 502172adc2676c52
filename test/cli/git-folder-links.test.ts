import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterQueue, QUEUE_FILE } from '../github/scenarios.js';
import { detectJson } from './detect-json.js';
import { tempDir, writeFiles } from './tree-readers/helpers.js';

/**
 * git's own folder is no part of the tree: in directory mode, a link into `.git` (in any case,
 * directly, down a chain, through a linked directory or by an absolute path) reads what the
 * machine's checkout holds there, never a file a commit tracks. Each is an error on the link's
 * path, like a link out of the tree: never the queue read as removed, lowered or raised.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Where the links point: a queue of `gpus` GPUs, or a file of git's that declares nothing. */
type Arrange = (head: string) => Promise<void>;

const gitFolders = ['.git', '.GIT', '.Git'];
const shapes: [string, string, Arrange][] = [];
for (const folder of gitFolders) {
  const queueIn = (head: string, gpus: number) => writeFiles(head, { [`${folder}/gpu-queue.yaml`]: clusterQueue(gpus) });
  shapes.push(
    [
      `a link to ${folder}/description`,
      QUEUE_FILE,
      async (head) => {
        await writeFiles(head, { [`${folder}/description`]: 'Unnamed repository; edit this file to name it.\n' });
        await symlink(`../../${folder}/description`, join(head, QUEUE_FILE)); // hostile link target: data, never read
      },
    ],
    [
      `a link to a smaller queue in ${folder}`,
      QUEUE_FILE,
      async (head) => {
        await queueIn(head, 2);
        await symlink(`../../${folder}/gpu-queue.yaml`, join(head, QUEUE_FILE)); // hostile link target: data, never read
      },
    ],
    [
      `a chain of links ending in ${folder}`,
      QUEUE_FILE,
      async (head) => {
        await queueIn(head, 2);
        await symlink(`../../${folder}/gpu-queue.yaml`, join(head, 'clusters/prod/hop.src')); // hostile link target: data, never read
        await symlink('hop.src', join(head, QUEUE_FILE));
      },
    ],
    [
      `a link through a linked directory to ${folder}`,
      QUEUE_FILE,
      async (head) => {
        await queueIn(head, 2);
        await symlink(`../../${folder}`, join(head, 'clusters/prod/meta')); // hostile link target: data, never read
        await symlink('meta/gpu-queue.yaml', join(head, QUEUE_FILE));
      },
    ],
    [
      `an absolute link into the head's ${folder}`,
      QUEUE_FILE,
      async (head) => {
        await queueIn(head, 2);
        await symlink(join(head, folder, 'gpu-queue.yaml'), join(head, QUEUE_FILE)); // hostile link target: data, never read
      },
    ],
    [
      `a new link to a larger queue in ${folder}`,
      'clusters/prod/extra.yaml',
      async (head) => {
        await writeFiles(head, { [QUEUE_FILE]: clusterQueue(6) });
        await queueIn(head, 640);
        await symlink(`../../${folder}/gpu-queue.yaml`, join(head, 'clusters/prod/extra.yaml')); // hostile link target: data, never read
      },
    ],
  );
}

describe('links into git’s own folder, in directory mode', () => {
  it.each(shapes)(
    '%s: an error on the link, no count read',
    async (_name, link, arrange) => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      const [base, head] = [join(tmp.path, 'base'), join(tmp.path, 'head')];
      await writeFiles(base, { [QUEUE_FILE]: clusterQueue(6) });
      await mkdir(join(head, 'clusters/prod'), { recursive: true });
      await arrange(head);

      const { json } = await detectJson('--base', base, '--head', head);

      expect(json.diagnostics.filter((d) => d.file === link && d.severity === 'error')).toHaveLength(1);
      expect(json.coverage.find((c) => c.file === link)?.state).toBe('not-followed');
      expect(json.changes.filter((c) => c.gpusAfter !== c.gpusBefore)).toEqual([]);
      // git's folder is never listed as files of the tree.
      expect(json.coverage.filter((c) => /(^|\/)\.git\//i.test(c.file))).toEqual([]);
    },
    20_000,
  );
});
