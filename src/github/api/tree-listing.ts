import type { GitHubClient, RepoRef } from './client.js';
import { GitHubAnswerError, parseBlobAnswer } from './answers.js';
import { GitHubApiError } from './errors.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import type { TreeLinks } from './linked-changes.js';
import { statusOf } from './tree-reader.js';
import { GpuJustifyError } from '../../domain/errors.js';
import { decodeText } from '../../util/decode-text.js';

/** One entry of a Git tree as the trees API gives it. */
interface TreeEntry {
  path: string;
  mode: string;
  type: string;
  sha: string;
}

interface Tree {
  sha: string;
  entries: TreeEntry[];
  truncated: boolean;
}

// Regular and executable files, as the CLI's git reader lists them: not links, not submodules.
const FILE_MODES = new Set(['100644', '100755']);
const LINK_MODE = '120000';
/** Trees listed one by one, at most, to find a commit's links when its recursive answer is cut short. */
const MAX_WALKED_TREES = 100;

/** GitHub cut short the listing of a single directory, which the trees API never should. */
class TruncatedTreeError extends GpuJustifyError {
  override readonly kind = 'github-truncated-tree';

  constructor(
    readonly dir: string,
    readonly where: string,
    /** Why the walk below a cut answer stopped, when it did. */
    stopped?: string,
  ) {
    super(
      stopped === undefined
        ? `GitHub's listing of ${dir === '' ? 'the root directory' : dir} at ${where} is truncated; its files cannot all be known`
        : `GitHub's listing of ${where} is truncated and it holds ${stopped}: its symbolic links cannot all be known, so a link leading to a changed file would not be reviewed`,
    );
    this.name = 'TruncatedTreeError';
  }
}

/**
 * The files of one commit, directory by directory, from the Git trees API: one recursive call
 * lists every directory a review asks about (the contents API would take a call per directory,
 * and stops at 1,000 entries). Over GitHub's limit for one answer (100,000 entries or 7 MB) the
 * answer says `truncated`; a directory is then listed on its own, walking down one tree at a time
 * from the deepest tree the cut answer did reach, so no listing is silently incomplete.
 *
 * Given `blobs`, a directory whose entries GraphQL already gave (asked for in the review's first
 * query, see ApiChangeSet) is answered from them, as is one an ancestor so listed shows absent;
 * any other directory goes through the trees API as above.
 */
export class ApiTreeListing {
  #whole: Promise<Tree | null> | null = null;
  readonly #trees = new Map<string, Promise<Tree | null>>();
  readonly #dirs = new Map<string, Promise<string[]>>();
  readonly #subdirs = new Map<string, Promise<string[]>>();
  readonly #all = new Map<string, Promise<TreeEntry[]>>();

  constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    /** A commit SHA; null for the default branch (an inherited policy's repository). */
    private readonly commit: string | null,
    private readonly blobs: GraphqlBlobs | null = null,
    /** Link texts by blob id, shared by the listings of one review: a link unchanged by the PR is one blob at both sides. */
    private readonly linkTexts: Map<string, Promise<string>> = new Map(),
  ) {}

  /** Paths of the files directly inside `dir` (`''` for the root); empty when there is no such directory. */
  list(dir: string): Promise<string[]> {
    const key = dir.replace(/^\/+|\/+$/g, '');
    let pending = this.#dirs.get(key);
    if (!pending) {
      pending = this.#list(key);
      this.#dirs.set(key, pending);
    }
    return pending;
  }

  /** Paths of the directories directly inside `dir`; empty when there is no such directory. */
  dirs(dir: string): Promise<string[]> {
    const key = dir.replace(/^\/+|\/+$/g, '');
    let pending = this.#subdirs.get(key);
    if (!pending) {
      pending = this.#entries(key, (e) => e.type === 'tree');
      this.#subdirs.set(key, pending);
    }
    return pending;
  }

  #list(dir: string): Promise<string[]> {
    return this.#entries(dir, isFile);
  }

  /**
   * The entry at `path` as its directory lists it, whatever its kind (a file, a link: mode 120000,
   * a submodule: mode 160000, type `commit`); null when its directory holds nothing of that name.
   */
  async entry(path: string): Promise<{ mode: string; type: string; sha: string } | null> {
    const key = path.replace(/^\/+|\/+$/g, '');
    const slash = key.lastIndexOf('/');
    const dir = slash < 0 ? '' : key.slice(0, slash);
    let pending = this.#all.get(dir);
    if (!pending) {
      pending = this.#entriesOf(dir);
      this.#all.set(dir, pending);
    }
    const found = (await pending).find((e) => e.path === key);
    return found ? { mode: found.mode, type: found.type, sha: found.sha } : null;
  }

  /** True when the entries of `dir` are known with no call: GraphQL gave them, or they were asked already. */
  async listsWithoutCall(dir: string): Promise<boolean> {
    const key = dir.replace(/^\/+|\/+$/g, '');
    return this.#all.has(key) || (await this.#fromGraphql(key)) !== undefined;
  }

  /**
   * Every symbolic link of the commit (mode 120000), from the one recursive listing `list` shares,
   * and a reader of where each leads (its blob's text, one blob call each). A listing GitHub cut
   * short cannot say which links there are: a TruncatedTreeError, never a silent part.
   */
  async links(): Promise<TreeLinks> {
    const entries = await this.#everyEntry();
    const links = new Map(entries.filter((e) => e.mode === LINK_MODE && e.type === 'blob').map((e) => [e.path, e.sha]));
    return { links, target: (sha) => this.linkText(sha) };
  }

  /**
   * Every entry of the commit, by full path. When the recursive answer is cut short, every tree is
   * listed on its own, level by level, at most MAX_WALKED_TREES of them: over that, what the commit
   * holds cannot all be known, and that is an error naming it, never a silent part.
   */
  async #everyEntry(): Promise<TreeEntry[]> {
    this.#whole ??= this.#fetch(this.#treeish(), true);
    const whole = await this.#whole;
    if (whole === null) return [];
    if (!whole.truncated) return whole.entries;
    const out: TreeEntry[] = [];
    let level = [{ sha: whole.sha, dir: '' }];
    let walked = 0;
    while (level.length > 0) {
      walked += level.length;
      if (walked > MAX_WALKED_TREES) throw new TruncatedTreeError('', this.#where(), `more than ${MAX_WALKED_TREES} directories`);
      const trees = await Promise.all(level.map(async (t) => ({ ...t, tree: await this.#tree(t.sha) })));
      level = [];
      for (const { dir, tree } of trees) {
        if (tree?.truncated) throw new TruncatedTreeError(dir, this.#where());
        for (const e of tree?.entries ?? []) {
          const path = dir === '' ? e.path : `${dir}/${e.path}`;
          out.push({ ...e, path });
          if (e.type === 'tree') level.push({ sha: e.sha, dir: path });
        }
      }
    }
    return out;
  }

  /** The text of a link's blob: the path it names, relative to the link; each blob read once. */
  linkText(sha: string): Promise<string> {
    let pending = this.linkTexts.get(sha);
    if (!pending) {
      pending = this.#linkText(sha);
      this.linkTexts.set(sha, pending);
    }
    return pending;
  }

  async #linkText(sha: string): Promise<string> {
    const data: unknown = await this.octokit.rest.git.getBlob({ ...this.repo, file_sha: sha }).then(
      (res) => res.data,
      (err: unknown) => {
        throw (
          GitHubApiError.from(err) ?? new GitHubAnswerError(`blob ${sha}`, err instanceof Error ? err.message.slice(0, 200) : 'unparseable')
        );
      },
    );
    const blob = parseBlobAnswer(`blob ${sha}`, data);
    return blob.encoding === 'base64' ? decodeText(Buffer.from(blob.content, 'base64')) : blob.content;
  }

  async #entries(dir: string, keep: (entry: TreeEntry) => boolean): Promise<string[]> {
    return (await this.#entriesOf(dir))
      .filter(keep)
      .map((e) => e.path)
      .sort();
  }

  /** Every entry directly inside `dir`, by full path. */
  async #entriesOf(dir: string): Promise<TreeEntry[]> {
    const listed = await this.#fromGraphql(dir);
    if (listed !== undefined) return listed;
    this.#whole ??= this.#fetch(this.#treeish(), true);
    const whole = await this.#whole;
    if (whole === null) return [];
    const prefix = dir === '' ? '' : `${dir}/`;
    if (!whole.truncated) {
      return whole.entries.filter((e) => e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes('/'));
    }
    const tree = await this.#subtree(whole, dir);
    if (tree === null) return [];
    if (tree.truncated) throw new TruncatedTreeError(dir, this.#where());
    return tree.entries.map((e) => ({ ...e, path: `${prefix}${e.path}` }));
  }

  /**
   * The entries of `dir` (full paths) from what GraphQL gave of it or of an ancestor; undefined
   * when that does not tell (nothing asked, GraphQL failed, or the ancestor holds `dir` as a tree
   * whose entries were not asked for).
   */
  async #fromGraphql(dir: string): Promise<TreeEntry[] | undefined> {
    if (this.blobs === null) return undefined;
    const parts = dir === '' ? [] : dir.split('/');
    for (let depth = parts.length; depth >= 0; depth--) {
      const pending = this.blobs.knownTree({ repo: this.repo, ref: this.commit, path: parts.slice(0, depth).join('/') });
      if (pending === undefined) continue;
      const answer = await pending.catch(() => ({ kind: 'rest' as const }));
      if (answer.kind === 'rest') return undefined;
      if (answer.kind === 'absent') return [];
      if (depth === parts.length) {
        const prefix = dir === '' ? '' : `${dir}/`;
        // Git's mode as the trees API spells it: 100644, 100755, 120000, 40000, 160000.
        return answer.entries.map((e) => ({ path: `${prefix}${e.name}`, mode: e.mode.toString(8), type: e.type, sha: e.oid }));
      }
      return answer.entries.some((e) => e.name === parts[depth] && e.type === 'tree') ? undefined : [];
    }
    return undefined;
  }

  /** The tree of `dir` alone (not recursive); null when the commit has no such directory. */
  async #subtree(whole: Tree, dir: string): Promise<Tree | null> {
    const parts = dir === '' ? [] : dir.split('/');
    // From the deepest ancestor (or the directory itself) the cut answer names, else the root.
    let sha = whole.sha;
    let depth = 0;
    for (let d = parts.length; d > 0; d--) {
      const known = whole.entries.find((e) => e.type === 'tree' && e.path === parts.slice(0, d).join('/'));
      if (known) {
        sha = known.sha;
        depth = d;
        break;
      }
    }
    for (const name of parts.slice(depth)) {
      const tree = await this.#tree(sha);
      const next = tree?.entries.find((e) => e.type === 'tree' && e.path === name)?.sha;
      if (next === undefined && tree?.truncated) throw new TruncatedTreeError(dir, this.#where());
      if (next === undefined) return null;
      sha = next;
    }
    return this.#tree(sha);
  }

  #where(): string {
    return `${this.repo.owner}/${this.repo.repo}@${this.#treeish()}`;
  }

  /** What the trees API is asked for: the commit, or the default branch as git names it. */
  #treeish(): string {
    return this.commit ?? 'HEAD';
  }

  #tree(sha: string): Promise<Tree | null> {
    let pending = this.#trees.get(sha);
    if (!pending) {
      pending = this.#fetch(sha, false);
      this.#trees.set(sha, pending);
    }
    return pending;
  }

  async #fetch(treeSha: string, recursive: boolean): Promise<Tree | null> {
    try {
      const { data } = await this.octokit.rest.git.getTree({ ...this.repo, tree_sha: treeSha, ...(recursive ? { recursive: '1' } : {}) });
      return {
        sha: data.sha,
        truncated: data.truncated,
        entries: data.tree.flatMap((e) =>
          typeof e.path === 'string' && typeof e.mode === 'string' && typeof e.type === 'string' && typeof e.sha === 'string'
            ? [{ path: e.path, mode: e.mode, type: e.type, sha: e.sha }]
            : [],
        ),
      };
    } catch (err) {
      // As for a file: nothing there is an empty listing. 409 is GitHub's answer for an empty repository.
      const status = statusOf(err);
      if (status === 404 || status === 409) return null;
      throw GitHubApiError.from(err) ?? err;
    }
  }
}

function isFile(entry: TreeEntry): boolean {
  return entry.type === 'blob' && FILE_MODES.has(entry.mode);
}
