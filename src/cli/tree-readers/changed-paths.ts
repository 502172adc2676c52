import { createHash } from 'node:crypto';
import type { DirReader } from './dir-reader.js';
import { linksToChanged } from '../../github/index.js';
import { gitOrThrow } from './git.js';
import type { GitReader } from './git-reader.js';

export type LocalReader = DirReader | GitReader;

/** Paths whose content differs between the sides or that exist on one side only, sorted. */
export async function changedPaths(base: LocalReader, head: LocalReader): Promise<string[]> {
  if (base.kind === 'dir' && head.kind === 'dir') return diffDirs(base, head);
  if (base.kind === 'git' && head.kind === 'git') return diffCommits(base, head);
  const [dir, commit] = base.kind === 'dir' ? [base, head as GitReader] : [head as DirReader, base];
  return diffDirAndCommit(dir, commit);
}

async function diffDirs(base: DirReader, head: DirReader): Promise<string[]> {
  const [before, after] = await Promise.all([base.listFiles(), head.listFiles()]);
  const inBase = new Set(before);
  const inHead = new Set(after);
  const changed = new Set([...after.filter((p) => !inBase.has(p)), ...before.filter((p) => !inHead.has(p))]);
  // A link that leads to no file inside (outside, nowhere, a directory) is no file, but a change.
  const [linksBefore, linksAfter] = await Promise.all([base.otherLinks(), head.otherLinks()]);
  for (const path of new Set([...linksBefore.keys(), ...linksAfter.keys()]))
    if (linksBefore.get(path) !== linksAfter.get(path)) changed.add(path);
  for (const path of before) {
    if (!inHead.has(path)) continue;
    const [a, b] = await Promise.all([base.readBytes(path), head.readBytes(path)]);
    if (a === null || b === null || !a.equals(b)) changed.add(path);
  }
  return [...changed].sort();
}

async function diffCommits(base: GitReader, head: GitReader): Promise<string[]> {
  // Renames are listed as a deletion and an addition: each side's parser sees its own path.
  const out = await gitOrThrow(
    head.repo,
    ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', base.commit, head.commit, '--'],
    `cannot compare ${base.label} with ${head.label}`,
  );
  const changed = new Set(
    out
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== ''),
  );
  // A link's blob stays the same when the file it leads to changes, yet whatever reads the link
  // (Terraform reading `variables.tf -> ../variables.tf` in its module, kustomize) reads the new
  // text: the link, or the file below a linked directory, is a changed path too, at either side,
  // found as the App finds it.
  const listed = new Set(changed);
  for (const reader of [base, head]) {
    for (const path of await linksToChanged(await reader.treeLinks(), listed, `the tree of ${reader.label}`, Infinity)) changed.add(path);
  }
  return [...changed].sort();
}

/** Compares file contents with blob ids by hashing them as git would, without reading blobs. */
async function diffDirAndCommit(dir: DirReader, commit: GitReader): Promise<string[]> {
  const [files, blobs] = await Promise.all([dir.listFiles(), commit.listBlobs()]);
  const onDisk = new Set(files);
  const changed = new Set<string>();
  // Links leading to no file inside, and submodules: a link's blob is its target's bytes.
  const [links, others] = await Promise.all([dir.otherLinks(), commit.otherEntries()]);
  for (const [path, target] of links) {
    const oid = others.get(path);
    if (oid === undefined || blobId(Buffer.from(target), oid.length) !== oid) changed.add(path);
  }
  for (const path of others.keys()) if (!links.has(path) && !onDisk.has(path)) changed.add(path);
  for (const path of blobs.keys()) if (!onDisk.has(path)) changed.add(path);
  for (const path of files) {
    const oid = blobs.get(path);
    const bytes = await dir.readBytes(path);
    if (oid === undefined || bytes === null || blobId(bytes, oid.length) !== oid) changed.add(path);
  }
  return [...changed].sort();
}

/** Git's object id of a blob; 64 hex digits mean a SHA-256 repository. */
function blobId(bytes: Buffer, length: number): string {
  return createHash(length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}
