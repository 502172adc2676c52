import type { TreeReader } from '../../domain/files.js';
import type { GitHubClient, RepoRef } from './client.js';
import {
  UnreadablePathError,
  asksForDirectory,
  dotDotThrough,
  dotDotThroughLink,
  linkToDirectory,
  linkToFileAsDirectory,
  submoduleReason,
} from '../../domain/files.js';
import { GitHubAnswerError, MAX_LINK_HOPS, linkTarget, parseBlobAnswer, parseContentAnswer, parseDirectoryAnswer } from './answers.js';
import type { DirectoryAnswer } from './answers.js';
import { GitHubApiError } from './errors.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import { decodeText } from '../../util/decode-text.js';

/** What the contents API says of a file: its blob, its size in bytes, its text when inlined. */
export interface FileEntry {
  sha: string;
  size: number;
  /** Null when GitHub left it out (over 1 MB): the blob API serves it. */
  text: string | null;
  /** A text blob whose text a prefetch left out past its bytes: not binary; the blob API serves it. */
  withheld?: true;
}

/**
 * The modes of a side's tree entries and the text of a link's blob (ApiTreeListing): what a link's
 * target says, where GitHub answered with the file it leads to and not the link.
 */
export interface TreeModes {
  entry(path: string): Promise<{ mode: string; sha: string } | null>;
  linkText(sha: string): Promise<string>;
}

const LINK_MODE = '120000';

/** A file's text, or why it was not downloaded. */
export type BoundedRead = { text: string | null } | { tooLarge: number };

/**
 * One side of a pull request read through the contents API at a fixed commit. PR code is never
 * checked out or run; each path is fetched at most once per reader.
 */
export class ApiTreeReader implements TreeReader {
  readonly label: string;
  readonly #entries = new Map<string, Promise<FileEntry | null>>();
  readonly #texts = new Map<string, Promise<string | null>>();
  readonly #dirs = new Map<string, Promise<DirectoryAnswer | null>>();

  constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    /** A commit SHA; null reads the default branch (an organisation's shared config). */
    private readonly ref: string | null,
    /** When given, files are asked of GitHub's GraphQL API first, many per request; REST serves the rest. */
    private readonly blobs: GraphqlBlobs | null = null,
    /** The side's tree, to tell where a checkout's reading of a link parts from GitHub's (below). */
    private readonly modes: TreeModes | null = null,
  ) {
    this.label = ref === null ? `${repo.owner}/${repo.repo}` : `${repo.owner}/${repo.repo}@${ref}`;
  }

  read(path: string): Promise<string | null> {
    const key = normalise(path);
    let pending = this.#texts.get(key);
    if (!pending) {
      pending = this.entry(key).then((entry) => (entry === null ? null : (entry.text ?? this.#blob(entry))));
      this.#texts.set(key, pending);
    }
    return pending;
  }

  /** The file's metadata (and text up to 1 MB), from one contents call; null when there is no file. */
  entry(path: string): Promise<FileEntry | null> {
    const key = normalise(path);
    let pending = this.#entries.get(key);
    if (!pending) {
      pending = this.#fetch(key);
      this.#entries.set(key, pending);
    }
    return pending;
  }

  /** The text, unless GitHub's size says it is over `maxBytes`: such a file is never downloaded. */
  async readWithin(path: string, maxBytes: number): Promise<BoundedRead> {
    const entry = await this.entry(path);
    if (entry !== null && entry.text === null && entry.size > maxBytes) return { tooLarge: entry.size };
    return { text: await this.read(path) };
  }

  /**
   * What the contents API says stands at `dir`: one call, the directory's names with it; null
   * when nothing is there. A path below a directory so asked is then answered from its names
   * when they do not hold it, with no call of its own.
   */
  directory(dir: string): Promise<DirectoryAnswer | null> {
    const key = normalise(dir);
    let pending = this.#dirs.get(key);
    if (!pending) {
      pending = this.#directory(key);
      this.#dirs.set(key, pending);
    }
    return pending;
  }

  async #directory(dir: string): Promise<DirectoryAnswer | null> {
    try {
      const ref = this.ref === null ? {} : { ref: this.ref };
      const { data } = await this.octokit.rest.repos.getContent({ ...this.repo, path: dir, ...ref });
      return parseDirectoryAnswer(dir, data);
    } catch (err) {
      if (statusOf(err) === 404) return null;
      if (err instanceof GitHubAnswerError) throw err;
      const api = GitHubApiError.from(err);
      if (api) throw api;
      throw new GitHubAnswerError(dir, err instanceof Error ? err.message.slice(0, 200) : 'unparseable', { cause: err });
    }
  }

  /**
   * True when the directory of `path` was asked of the contents API (`directory`) and GitHub
   * would serve nothing at `path`: the directory is not there, is no directory (nothing is served
   * below a file, a link or a submodule), or does not list its name. A failed ask tells nothing.
   */
  async #knownAbsent(path: string): Promise<boolean> {
    const slash = path.lastIndexOf('/');
    if (slash < 0) return false;
    const pending = this.#dirs.get(path.slice(0, slash));
    if (!pending) return false;
    const dir = await pending.then(
      (answer) => ({ answer }),
      () => null,
    );
    if (dir === null) return false;
    return dir.answer === null || dir.answer.kind !== 'dir' || !dir.answer.names.has(path.slice(slash + 1));
  }

  /**
   * A symbolic link is read as its target inside the repository, what kustomize or Argo CD would
   * apply (GitHub answers with the target's content itself when it is a file). A link leaving the
   * repository, to nothing or to a directory, a chain of links too long to be anything but a loop,
   * and a submodule are an UnreadablePathError: there, never absent.
   */
  async #fetch(path: string, hops = 0, asked = path, dirOnly = false): Promise<FileEntry | null> {
    // A link's target is read through REST, as links always are (GraphQL does not say what is a link).
    if (hops === 0 && this.blobs) {
      const answer = await this.blobs.load({ repo: this.repo, ref: this.ref, path });
      if (answer.kind === 'absent') return null;
      if (answer.kind === 'file')
        return { sha: answer.sha, size: answer.size, text: answer.text, ...(answer.withheld ? { withheld: true as const } : {}) };
    }
    if (hops === 0 && (await this.#knownAbsent(path))) return null;
    let data: unknown;
    try {
      const ref = this.ref === null ? {} : { ref: this.ref };
      ({ data } = await this.octokit.rest.repos.getContent({ ...this.repo, path, ...ref }));
    } catch (err) {
      if (statusOf(err) === 404) {
        if (hops === 0) return null;
        throw new UnreadablePathError(asked, `a symbolic link to ${path}, which is not there`);
      }
      const api = GitHubApiError.from(err);
      if (api) throw api;
      // Octokit could not parse the answer (a body too large or not JSON): an odd answer, named.
      throw new GitHubAnswerError(path, err instanceof Error ? err.message.slice(0, 200) : 'unparseable', { cause: err });
    }
    const answer = parseContentAnswer(path, data);
    if (answer.kind === 'none') {
      if (hops === 0) return null;
      throw new UnreadablePathError(asked, linkToDirectory(path));
    }
    if (answer.kind === 'submodule')
      throw new UnreadablePathError(
        asked,
        hops === 0 ? submoduleReason(answer.sha) : `a symbolic link to ${path}, ${submoduleReason(answer.sha)}`,
      );
    if (answer.kind === 'symlink') {
      await this.#climbsThroughLink(path, answer.target, asked);
      const target = linkTarget(path, answer.target);
      if (target === null)
        throw new UnreadablePathError(asked, 'a symbolic link leading outside the repository: what it declares cannot be read');
      if (hops + 1 > MAX_LINK_HOPS) throw new UnreadablePathError(asked, `a symbolic link that loops (more than ${MAX_LINK_HOPS} links)`);
      return this.#fetch(target, hops + 1, asked, dirOnly || asksForDirectory(answer.target));
    }
    const at = answered(data);
    if (at !== null && at !== path) await this.#followedByGitHub(path, asked);
    // A link spelt `queues.yaml/` asks for a directory: a checkout reads nothing through it.
    if (dirOnly) throw new UnreadablePathError(asked, linkToFileAsDirectory(path));
    const inlined = answer.encoding === 'base64' && answer.content !== null && (answer.content !== '' || answer.size === 0);
    return { sha: answer.sha, size: answer.size, text: inlined ? decodeBase64(answer.content ?? '') : null };
  }

  /**
   * GitHub answers a link to a file with that file, having taken the target's `..` lexically, as
   * the folder holding the part before it. A checkout takes `lnk/..` as the parent of where the
   * linked directory `lnk` leads: where the two part, the link is an error on the file asked,
   * never the file GitHub's reading reaches. The link's own text is read from the tree only then.
   */
  async #followedByGitHub(link: string, asked: string): Promise<void> {
    if (this.modes === null) return;
    const entry = await this.modes.entry(link);
    if (entry?.mode !== LINK_MODE) return;
    await this.#climbsThroughLink(link, await this.modes.linkText(entry.sha), asked);
  }

  /** An UnreadablePathError on `asked` when the target of the link at `link` takes `..` out of a linked directory. */
  async #climbsThroughLink(link: string, target: string, asked: string): Promise<void> {
    if (this.modes === null || !target.split('/').includes('..')) return;
    const modes = this.modes;
    const through = await dotDotThroughLink(link, target, async (p) => (await modes.entry(p))?.mode === LINK_MODE);
    if (through !== null) throw new UnreadablePathError(asked, dotDotThrough(through));
  }

  async #blob(entry: FileEntry): Promise<string> {
    // Over 1 MB the contents API leaves `content` empty (encoding "none"); the blob API serves
    // files up to 100 MB.
    if (entry.size === 0) return '';
    const data: unknown = await this.octokit.rest.git.getBlob({ ...this.repo, file_sha: entry.sha }).then(
      (res) => res.data,
      (err: unknown) => {
        throw (
          GitHubApiError.from(err) ??
          new GitHubAnswerError(`blob ${entry.sha}`, err instanceof Error ? err.message.slice(0, 200) : 'unparseable')
        );
      },
    );
    const blob = parseBlobAnswer(`blob ${entry.sha}`, data);
    return blob.encoding === 'base64' ? decodeBase64(blob.content) : blob.content;
  }
}

/** The path a contents answer is for: another than the one asked when GitHub followed a link. */
function answered(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const path = (data as { path?: unknown }).path;
  return typeof path === 'string' ? normalise(path) : null;
}

function normalise(path: string): string {
  return path.replace(/^\/+/, '');
}

function decodeBase64(content: string): string {
  return decodeText(Buffer.from(content, 'base64'));
}

export function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
