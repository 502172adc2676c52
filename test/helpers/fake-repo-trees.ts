import { createHash } from 'node:crypto';
import type { FakeRequest, FakeResponse } from './fake-github.js';

/**
 * The Git trees API over a FakeRepo's files: trees with the SHAs git gives them, a commit SHA
 * standing for its root tree, `recursive` listing every entry below with its full path, and a
 * recursive answer over the limit cut short and marked `truncated`, as GitHub does.
 */

/** Git's blob id, so SHAs look and behave like GitHub's. */
export function gitBlobSha(bytes: Buffer): string {
  return gitObjectSha('blob', bytes);
}

interface Entry {
  name: string;
  /** Git's modes: a file, a directory, a symbolic link, a submodule. */
  mode: '100644' | '040000' | '120000' | '160000';
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size?: number;
}

/**
 * A path of a commit that is no regular file: a symbolic link (its blob holds `link`, the target)
 * or a submodule (a gitlink: the commit `submodule` of the repository at `url`).
 */
export type FakeSpecial = { link: string } | { submodule: string; url: string };

/** The links and submodules of each file set, beside its regular files. */
const specials = new WeakMap<Record<string, string>, Record<string, FakeSpecial>>();

/** Declares `files`' links and submodules (see FakeSpecial); every reader of `files` sees them. */
export function setSpecial(files: Record<string, string>, special: Record<string, FakeSpecial>): void {
  specials.set(files, special);
  built.delete(files);
}

/** The links and submodules of a file set; empty when it has none. */
export function specialOf(files: Record<string, string>): Record<string, FakeSpecial> {
  return specials.get(files) ?? {};
}

interface Trees {
  root: string;
  /** Tree SHA → its entries, in git's order. */
  bySha: Map<string, Entry[]>;
}

/** Git's trees of a set of files, with its links and submodules. */
function gitTrees(files: Record<string, string>): Trees {
  const bySha = new Map<string, Entry[]>();
  const special = specialOf(files);
  const build = (prefix: string): string => {
    const names = new Map<string, Entry | 'dir'>();
    for (const [path, text] of Object.entries(files)) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) names.set(rest.slice(0, slash), 'dir');
      else {
        const bytes = Buffer.from(text, 'utf8');
        names.set(rest, { name: rest, mode: '100644', type: 'blob', sha: gitObjectSha('blob', bytes), size: bytes.length });
      }
    }
    for (const [path, entry] of Object.entries(special)) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) names.set(rest.slice(0, slash), 'dir');
      else if ('link' in entry) {
        const bytes = Buffer.from(entry.link, 'utf8');
        names.set(rest, { name: rest, mode: '120000', type: 'blob', sha: gitObjectSha('blob', bytes), size: bytes.length });
      } else names.set(rest, { name: rest, mode: '160000', type: 'commit', sha: entry.submodule });
    }
    const entries = [...names].map(([name, e]): Entry =>
      e === 'dir' ? { name, mode: '040000', type: 'tree', sha: build(`${prefix}${name}/`) } : e,
    );
    // Git sorts a tree's entries by name, a directory's as if it ended in '/'.
    const key = (e: Entry) => (e.type === 'tree' ? `${e.name}/` : e.name);
    entries.sort((a, b) => Buffer.compare(Buffer.from(key(a)), Buffer.from(key(b))));
    const body = Buffer.concat(
      entries.flatMap((e) => [Buffer.from(`${e.mode === '040000' ? '40000' : e.mode} ${e.name}\0`), Buffer.from(e.sha, 'hex')]),
    );
    const sha = gitObjectSha('tree', body);
    bySha.set(sha, entries);
    return sha;
  };
  return { root: build(''), bySha };
}

/** Trees already built, by file set: a query asks for many directories of one commit. */
const built = new WeakMap<Record<string, string>, Trees>();

/** The entries of one directory of a set of files, as Git has them; null when there is no such directory. */
export function directoryEntries(files: Record<string, string>, dir: string): Entry[] | null {
  let trees = built.get(files);
  if (!trees) built.set(files, (trees = gitTrees(files)));
  let sha: string | undefined = trees.root;
  for (const name of dir === '' ? [] : dir.split('/')) {
    sha = trees.bySha.get(sha)?.find((e) => e.type === 'tree' && e.name === name)?.sha;
    if (sha === undefined) return null;
  }
  return trees.bySha.get(sha) ?? null;
}

export interface TreeSource {
  /** The files at a commit of the requested repository, if it is one. */
  filesAt(sha: string): Record<string, string> | undefined;
  /** Every file set of the requested repository, to find a tree SHA in. */
  all(): Record<string, string>[];
  /** Entries a recursive answer holds at most. */
  limit: number;
}

/** `GET /repos/{owner}/{repo}/git/trees/{tree_sha}`. */
export function treeAnswer(req: FakeRequest, source: TreeSource): FakeResponse {
  const ref = req.params.sha ?? '';
  const atCommit = source.filesAt(ref);
  const trees = atCommit
    ? gitTrees(atCommit)
    : source
        .all()
        .map(gitTrees)
        .find((t) => t.bySha.has(ref));
  const sha = atCommit && trees ? trees.root : ref;
  if (!trees?.bySha.has(sha))
    return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/git/trees#get-a-tree' } };
  const host = `http://${String(req.headers.host)}${req.path.replace(/\/git\/trees\/.*$/, '')}`;
  const out: Record<string, unknown>[] = [];
  const walk = (treeSha: string, prefix: string): void => {
    for (const e of trees.bySha.get(treeSha) ?? []) {
      const path = `${prefix}${e.name}`;
      out.push({
        path,
        mode: e.mode,
        type: e.type,
        sha: e.sha,
        ...(e.size === undefined ? {} : { size: e.size }),
        url: `${host}/git/${e.type}s/${e.sha}`,
      });
      if (e.type === 'tree' && req.query.has('recursive')) walk(e.sha, `${path}/`);
    }
  };
  walk(sha, '');
  const truncated = req.query.has('recursive') && out.length > source.limit;
  return { body: { sha, url: `${host}/git/trees/${sha}`, tree: truncated ? out.slice(0, source.limit) : out, truncated } };
}

function gitObjectSha(type: 'blob' | 'tree', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}
