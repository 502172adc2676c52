import { describe, expect, it } from 'vitest';
import { MAX_LINK_HOPS } from '../../domain/files.js';
import { MAX_LINK_READS, linksToChanged } from './linked-changes.js';

/** A tree's links, each path → the text it names, its blob id standing for that text. */
function treeOf(links: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    tree: {
      links: new Map(Object.entries(links).map(([path, to]) => [path, `sha:${to}`])),
      target: (sha: string) => {
        reads.push(sha);
        return Promise.resolve(sha.slice('sha:'.length));
      },
    },
  };
}

const WHERE = 'the tree of o/r@c';

describe('linksToChanged', () => {
  it.each([
    ['a sibling folder', { 'gke/variables.tf': '../common/variables.tf' }, 'common/variables.tf', ['gke/variables.tf']],
    ['the parent folder', { 'envs/gcp/gke/variables.tf': '../variables.tf' }, 'envs/gcp/variables.tf', ['envs/gcp/gke/variables.tf']],
    ['a chain of two', { 'a/b/v.tf': '../v.tf', 'a/v.tf': '../common/v.tf' }, 'common/v.tf', ['a/b/v.tf', 'a/v.tf']],
    ['a linked directory', { 'gke/common': '../common' }, 'common/variables.tf', ['gke/common/variables.tf']],
    ['a chain through a linked directory', { 'gke/v.tf': 'lib/v.tf', 'gke/lib': '../lib' }, 'lib/v.tf', ['gke/lib/v.tf', 'gke/v.tf']],
  ])('names what reads a changed file through %s', async (_, links, changed, expected) => {
    expect(await linksToChanged(treeOf(links).tree, new Set([changed]), WHERE)).toEqual(expected);
  });

  it('names the links leading through a changed link, not the changed link again', async () => {
    const { tree } = treeOf({ 'a/b/v.tf': '../v.tf', 'a/v.tf': '../common/v.tf' });
    expect(await linksToChanged(tree, new Set(['a/v.tf']), WHERE)).toEqual(['a/b/v.tf']);
  });

  it.each([
    ['out of the tree', { 'gke/v.tf': '../../elsewhere/v.tf' }],
    ['absolute', { 'gke/v.tf': '/etc/v.tf' }],
    ['round a loop', { 'a/v.tf': '../b/v.tf', 'b/v.tf': '../a/v.tf' }],
    ['to another file', { 'gke/v.tf': '../other/v.tf' }],
  ])('a link leading %s leads to no changed file', async (_, links) => {
    expect(await linksToChanged(treeOf(links).tree, new Set(['common/v.tf']), WHERE)).toEqual([]);
  });

  it('a chain longer than the hops followed leads to no changed file', async () => {
    const links = Object.fromEntries(Array.from({ length: MAX_LINK_HOPS + 1 }, (_, i) => [`l${i}.tf`, `l${i + 1}.tf`]));
    const changed = `l${MAX_LINK_HOPS + 1}.tf`;
    expect(await linksToChanged(treeOf(links).tree, new Set([changed]), WHERE)).not.toContain('l0.tf');
    expect(await linksToChanged(treeOf(links).tree, new Set([changed]), WHERE)).toContain('l1.tf');
  });

  it('a path detection never reads is left out, as are paths already changed', async () => {
    const { tree } = treeOf({ 'docs/logo.png': '../common/logo.png', 'gke/v.tf': '../common/v.tf' });
    expect(await linksToChanged(tree, new Set(['common/logo.png', 'common/v.tf', 'gke/v.tf']), WHERE)).toEqual([]);
  });

  it('reads each link blob once, however many links share it', async () => {
    const { tree, reads } = treeOf({ 'a/v.tf': '../common/v.tf', 'b/v.tf': '../common/v.tf', 'c/v.tf': '../common/v.tf' });
    expect(await linksToChanged(tree, new Set(['common/v.tf']), WHERE)).toEqual(['a/v.tf', 'b/v.tf', 'c/v.tf']);
    expect(reads).toEqual(['sha:../common/v.tf']);
  });

  it('more link blobs than it reads is an error naming the tree, never a silent part', async () => {
    const links = Object.fromEntries(Array.from({ length: MAX_LINK_READS + 1 }, (_, i) => [`m${i}/v.tf`, `../s${i}.tf`]));
    const { tree, reads } = treeOf(links);
    await expect(linksToChanged(tree, new Set(['s0.tf']), WHERE)).rejects.toThrow(/the tree of o\/r@c holds 101 symbolic links/);
    expect(reads).toEqual([]);
  });

  it('no link, or no changed path: nothing read', async () => {
    const { tree, reads } = treeOf({ 'a/v.tf': '../v.tf' });
    expect(await linksToChanged(tree, new Set(), WHERE)).toEqual([]);
    expect(await linksToChanged(treeOf({}).tree, new Set(['v.tf']), WHERE)).toEqual([]);
    expect(reads).toEqual([]);
  });
});
