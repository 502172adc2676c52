import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/domain/errors.js';
import { DirReader } from '../../../src/cli/tree-readers/dir-reader.js';
import { tempDir, writeFiles } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let root: string;

beforeEach(async () => {
  tmp = await tempDir();
  root = join(tmp.path, 'repo');
  await writeFiles(root, {
    'clusters/prod/queues.yaml': 'kind: ClusterQueue\n',
    'gpu-workloads.yaml': 'workloads: []\n',
    'node_modules/x/index.js': 'x',
    '.git/HEAD': 'ref: refs/heads/main\n',
  });
  await writeFiles(tmp.path, { 'outside.txt': 'secret' });
});
afterEach(() => tmp.cleanup());

describe('DirReader', () => {
  it('reads files by relative path and labels itself', async () => {
    const reader = new DirReader(root, 'head-dir');
    expect(reader.label).toBe('head-dir');
    expect(await reader.read('clusters/prod/queues.yaml')).toBe('kind: ClusterQueue\n');
    expect(await reader.read('./clusters//prod/../prod/queues.yaml')).toBe('kind: ClusterQueue\n');
  });

  it.each(['missing.yaml', 'clusters/missing.yaml', 'gpu-workloads.yaml/x', 'clusters'])(
    'returns null for %s (missing or not a file)',
    async (path) => {
      expect(await new DirReader(root).read(path)).toBeNull();
    },
  );

  it.each(['../outside.txt', 'clusters/../../outside.txt', '/etc/passwd', ''])('refuses %j with an InputError', async (path) => {
    const error = await new DirReader(root).read(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ kind: 'bad-input' });
  });

  it('refuses a symbolic link leading outside the root, follows one inside', async () => {
    await symlink(join(tmp.path, 'outside.txt'), join(root, 'escape.yaml'));
    await symlink(join(root, 'gpu-workloads.yaml'), join(root, 'alias.yaml'));
    const reader = new DirReader(root);
    await expect(reader.read('escape.yaml')).rejects.toThrow(/symbolic link leading outside/);
    expect(await reader.read('alias.yaml')).toBe('workloads: []\n');
  });

  it('lists files, skipping .git, node_modules and links that leave the root or loop', async () => {
    await symlink(join(tmp.path, 'outside.txt'), join(root, 'escape.yaml'));
    await symlink(join(root, 'gpu-workloads.yaml'), join(root, 'alias.yaml'));
    await symlink(root, join(root, 'clusters', 'loop'));
    await symlink(join(root, 'nowhere'), join(root, 'dangling'));
    await mkdir(join(root, 'empty'));
    expect(await new DirReader(root).listFiles()).toEqual(['alias.yaml', 'clusters/prod/queues.yaml', 'gpu-workloads.yaml']);
  });

  it('lists the directories directly inside a directory, those holding files only', async () => {
    await mkdir(join(root, 'empty'));
    await writeFiles(root, { 'clusters/staging/eu/queues.yaml': 'kind: ClusterQueue\n' });
    const reader = new DirReader(root);
    expect(await reader.dirs('')).toEqual(['clusters']);
    expect(await reader.dirs('clusters')).toEqual(['clusters/prod', 'clusters/staging']);
    expect(await reader.dirs('clusters/staging/')).toEqual(['clusters/staging/eu']);
    expect(await reader.dirs('clusters/prod')).toEqual([]);
    expect(await reader.dirs('missing')).toEqual([]);
  });

  it('a missing root lists as an InputError', async () => {
    await expect(new DirReader(join(tmp.path, 'nope')).listFiles()).rejects.toBeInstanceOf(InputError);
  });
});
