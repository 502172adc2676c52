import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/domain/errors.js';
import { changeSetFromArgs } from '../../../src/cli/tree-readers/change-set.js';
import { DirReader } from '../../../src/cli/tree-readers/dir-reader.js';
import { GitReader } from '../../../src/cli/tree-readers/git-reader.js';
import { commitAll, git, tempDir, writeFiles } from './helpers.js';

const BASE_FILES = {
  'clusters/prod/queues.yaml': 'nominalQuota: 4\n',
  'clusters/prod/pools.yaml': 'nodes: 2\n',
  'docs/readme.md': 'hello\n',
  'old-name.yaml': 'moved: true\n',
  'gone.yaml': 'bye\n',
};
/** Changes: queues.yaml edited, gone.yaml deleted, old-name.yaml renamed, new.yaml added. */
const HEAD_FILES = {
  'clusters/prod/queues.yaml': 'nominalQuota: 8\n',
  'clusters/prod/pools.yaml': 'nodes: 2\n',
  'docs/readme.md': 'hello\n',
  'new-name.yaml': 'moved: true\n',
  'clusters/new.yaml': 'added\n',
};
const CHANGED = ['clusters/new.yaml', 'clusters/prod/queues.yaml', 'gone.yaml', 'new-name.yaml', 'old-name.yaml'];

let tmp: Awaited<ReturnType<typeof tempDir>>;
let repo: string;
let baseDir: string;
let headDir: string;
let baseCommit: string;

beforeAll(async () => {
  tmp = await tempDir();
  repo = join(tmp.path, 'repo');
  baseDir = join(tmp.path, 'base');
  headDir = join(tmp.path, 'head');
  await writeFiles(baseDir, BASE_FILES);
  await writeFiles(headDir, { ...HEAD_FILES, 'node_modules/pkg/index.js': 'ignored' });

  await writeFiles(repo, BASE_FILES);
  git(repo, 'init', '-q', '-b', 'feature');
  baseCommit = commitAll(repo, 'base');
  git(repo, 'branch', 'main');
  for (const path of Object.keys(BASE_FILES)) await rm(join(repo, path));
  await writeFiles(repo, HEAD_FILES);
  commitAll(repo, 'head');
  git(repo, 'tag', 'v-head');
});
afterAll(() => tmp.cleanup());

describe('changeSetFromArgs', () => {
  it('two directories: readers on disk, changed paths by content', async () => {
    const set = await changeSetFromArgs({ base: baseDir, head: headDir });
    expect(set.base).toBeInstanceOf(DirReader);
    expect(set.head.label).toBe(headDir);
    expect(await set.changedPaths()).toEqual(CHANGED);
    expect(await set.base.read('clusters/prod/queues.yaml')).toBe('nominalQuota: 4\n');
    expect(await set.head.read('gone.yaml')).toBeNull();
  });

  it("names the repository by its git remotes, so modules called by the repository's own URL are read from the tree", async () => {
    git(repo, 'remote', 'add', 'origin', 'git@github.com:Acme/Infra.git');
    git(repo, 'remote', 'add', 'mirror', 'https://github.com/acme/infra.git');
    try {
      expect((await changeSetFromArgs({ base: 'main', head: 'feature', repo })).repositories).toEqual(['github.com/acme/infra']);
      // Two directories outside a checkout name no repository.
      expect((await changeSetFromArgs({ base: baseDir, head: headDir })).repositories).toBeUndefined();
    } finally {
      git(repo, 'remote', 'remove', 'origin');
      git(repo, 'remote', 'remove', 'mirror');
    }
  });

  it('two refs: readers at each commit, changed paths from git diff', async () => {
    const set = await changeSetFromArgs({ base: 'main', head: 'feature', repo });
    expect(set.base).toBeInstanceOf(GitReader);
    expect(set.base.label).toBe('main');
    expect(await set.changedPaths()).toEqual(CHANGED);
    expect(await set.base.read('clusters/prod/queues.yaml')).toBe('nominalQuota: 4\n');
    expect(await set.head.read('clusters/prod/queues.yaml')).toBe('nominalQuota: 8\n');
    expect(await set.head.read('gone.yaml')).toBeNull();
    expect(await set.head.read('clusters')).toBeNull();
  });

  it.each([
    ['a ref and a directory', () => ({ base: baseCommit, head: headDir, repo })],
    ['a directory and a tag', () => ({ base: baseDir, head: 'v-head', repo })],
  ])('%s: changed paths by comparing contents', async (_kind, args) => {
    const set = await changeSetFromArgs(args());
    expect(await set.changedPaths()).toEqual(CHANGED);
  });

  it('git readers list the directories at their commit', async () => {
    const base = await GitReader.open(repo, 'main');
    const head = await GitReader.open(repo, 'feature');
    expect(await base.dirs('')).toEqual(['clusters', 'docs']);
    expect(await head.dirs('clusters')).toEqual(['clusters/prod']);
    expect(await head.dirs('docs')).toEqual([]);
  });

  it('identical sides change nothing', async () => {
    const set = await changeSetFromArgs({ base: 'main', head: baseDir, repo });
    expect(await set.changedPaths()).toEqual([]);
  });

  it('a git reader stays on the commit it resolved', async () => {
    const reader = await GitReader.open(repo, 'feature~1');
    expect(reader.commit).toBe(baseCommit);
    expect(await reader.read('gone.yaml')).toBe('bye\n');
  });

  it.each([
    ['--base', { base: 'no-such-branch', head: 'main' }, /--base no-such-branch: .*"no-such-branch" is not a commit/],
    ['--head', { base: 'main', head: '--upload-pack=evil' }, /--head --upload-pack=evil: .*is not a git ref/],
  ])('an unknown %s is an InputError naming the flag', async (_flag, args, message) => {
    const error = await changeSetFromArgs({ ...args, repo }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(message);
  });

  it('a ref outside any git repository says so', async () => {
    const error = await changeSetFromArgs({ base: 'main', head: headDir, repo: baseDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/--base main: .*is not a git repository/);
  });

  it('git readers refuse paths leaving the tree', async () => {
    const reader = await GitReader.open(repo, 'main');
    await expect(reader.read('../etc/passwd')).rejects.toBeInstanceOf(InputError);
    await expect(reader.read('/etc/passwd')).rejects.toBeInstanceOf(InputError);
  });
});
