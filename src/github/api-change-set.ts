import { anyParserAccepts, detectionReads, mightHoldCapacity as detectionMightHold } from '../detect/detect-file.js';
import { PARSERS } from '../detect/registry.js';
import type { ChangeSet, TreeReader } from '../domain/files.js';
import { MAX_FILE_CHARS } from '../domain/limits.js';
import { parseListedFiles } from './answers.js';
import { ApiTreeReader } from './api-tree-reader.js';
import type { GitHubClient, PullRequestTarget } from './client.js';
import type { BlobAt, GraphqlBlobs } from './graphql-blobs.js';
import { shownAfter, textBefore } from './patch.js';
import { ApiTreeListing } from './tree-listing.js';
import { changedByTrees, MAX_LISTED_FILES } from './tree-diff.js';
import type { UnlistedFiles } from './tree-diff.js';

export { ApiTreeReader } from './api-tree-reader.js';

/**
 * A file not downloaded whole for its size: a changed file whose head side could hold capacity,
 * or an input the review reads as it is (the catalog, a load-test file, the policy, a kustomize
 * base), refused by GitHub's size before any download.
 */
export interface RefusedFile {
  path: string;
  /** Its size in bytes, as GitHub gives it. */
  bytes: number;
  /** False for an input read as it is: its message then does not speak of GPU capacity. */
  capacity?: boolean;
}

/** One entry of the pull request's file list. */
interface ListedFile {
  filename: string;
  status: string;
  /** The head side's blob. */
  sha: string | null;
  /** Unified diff, merge base → head; GitHub leaves it out for large or binary diffs. */
  patch: string | null;
  previousFilename: string | null;
}

/**
 * The pull request's two sides and the paths its diff touches (old names of renames too).
 *
 * By default both sides are read as they are at the base and head commits. `readSparingly`
 * (what the App does) saves reads on the changed files detection asks for:
 * - a file whose head side GitHub says is over the size limit is not downloaded whole: its head
 *   reads as absent, and when it could hold capacity `refusedFiles` names it, for the review to
 *   report, as detection reports a file too large to parse. Whether it could is judged as
 *   detection judges it, by the parsers' cheap checks and the floor's (it may name a GPU), on what can be had without the whole
 *   download: the file's first bytes up to the limit, the head lines its listed diff shows, and
 *   its base side (a file that held capacity before cannot be compared with a head unread).
 *   Capacity past the start of a file whose base held none and whose diff GitHub leaves out goes
 *   unseen: the price of a download bounded by the limit, however large the file;
 * - the head side is read first; when the file's diff is listed, the base side is rebuilt from
 *   head and diff, and read only if either side could hold capacity (a parser's cheap check
 *   passes). Checking the head alone would miss a file whose base declared GPUs and whose head no
 *   longer does; the rebuilt base cannot. The rebuilt text is the merge base's; a file that could
 *   hold capacity is still read at the base commit, so its numbers are what they always were (the
 *   floor's scan for GPU names makes do with the rebuilt text).
 * Paths kept exact (the policy, the catalog) are always read as they are at the base commit.
 *
 * Both sides list directories (`list`, for formats read with their siblings) through the Git
 * trees API at their commit, once per side however many directories are asked about.
 *
 * Given `blobs`, files are read through GitHub's GraphQL API, many per request, REST serving what
 * GraphQL cannot (see graphql-blobs.ts). As soon as the file list is known, both sides of every
 * changed file detection reads (a parser accepts it, or the floor scans it for GPU names: any text
 * that could be applied) are asked for together: the head side of each, and the base side
 * of those the rules above will read rather than rebuild (see `baseLikelyRead`), and the other base
 * sides where the queries have room. A base side read all the same costs another query, shared
 * with whatever else is read at that moment.
 */
export class ApiChangeSet implements ChangeSet {
  readonly base: TreeReader;
  readonly head: TreeReader;
  readonly baseTree: ApiTreeReader;
  readonly headTree: ApiTreeReader;
  #files: Promise<Map<string, ListedFile>> | null = null;
  #paths: Promise<Set<string>> | null = null;
  #exact: Set<string> | null = null;
  readonly #bases = new Map<string, Promise<string | null>>();
  readonly #refused = new Map<string, number>();
  #unlisted: UnlistedFiles | null = null;
  readonly #refusedInputs = new Map<string, number>();

  constructor(
    private readonly octokit: GitHubClient,
    private readonly target: PullRequestTarget,
    private readonly blobs: GraphqlBlobs | null = null,
  ) {
    this.baseTree = new ApiTreeReader(octokit, target.base, target.baseSha, blobs);
    this.headTree = new ApiTreeReader(octokit, target.head, target.headSha, blobs);
    // Listings are by commit, like the reads: a directory's files as they are at that side.
    const baseListing = new ApiTreeListing(octokit, target.base, target.baseSha, blobs);
    const headListing = new ApiTreeListing(octokit, target.head, target.headSha, blobs);
    this.base = {
      label: this.baseTree.label,
      read: (path) => this.#readBase(normalise(path)),
      list: (dir) => baseListing.list(dir),
      dirs: (dir) => baseListing.dirs(dir),
    };
    this.head = {
      label: this.headTree.label,
      read: (path) => this.#readHead(normalise(path)),
      list: (dir) => headListing.list(dir),
      dirs: (dir) => headListing.dirs(dir),
    };
  }

  async changedPaths(): Promise<string[]> {
    return [...(await this.#changed())];
  }

  #changed(): Promise<Set<string>> {
    this.#paths ??= this.#listFiles().then(async (files) => {
      const paths = new Set<string>();
      for (const file of files.values()) {
        // A rename's old path still holds the capacity the base side declared.
        if (file.previousFilename) paths.add(file.previousFilename);
        paths.add(file.filename);
      }
      this.#prefetch(files.values());
      await this.#completeListing(paths, files.size);
      return paths;
    });
    return this.#paths;
  }

  /** Both sides of the listed files detection reads, asked for in as few GraphQL queries as they fit. */
  #prefetch(files: Iterable<ListedFile>): void {
    if (!this.blobs) return;
    const wanted: BlobAt[] = [];
    const spare: BlobAt[] = [];
    const dirs = new Map<string, BlobAt>();
    const { base, head, baseSha, headSha } = this.target;
    for (const file of files) {
      if (file.status !== 'removed' && detectionReads(file.filename)) {
        wanted.push({ repo: head, ref: headSha, path: file.filename });
        for (const dir of ancestors(file.filename)) dirs.set(dir, { repo: head, ref: headSha, path: dir });
      }
      const before = file.previousFilename ?? file.filename;
      if (file.status !== 'added' && detectionReads(before))
        (baseLikelyRead(file) ? wanted : spare).push({ repo: base, ref: baseSha, path: before });
    }
    this.blobs.prefetch(wanted);
    // A base side that will likely be rebuilt still rides along where a query has room: if a
    // cheap check on its head then passes, it is already there. So do the head's directories
    // above each such file, which detection lists for siblings and overlays: a listing they
    // answer costs no call of the trees API.
    this.blobs.prefetchIfRoom(spare, dirs.values());
  }

  /** Saves reads as the class comment says; `keepExact` are read as they are, always. */
  readSparingly(keepExact: Iterable<string>): void {
    this.#exact = new Set([...keepExact].map(normalise));
  }

  /** Changed files that could hold capacity, not read because their head side is over the limit. */
  refusedFiles(): RefusedFile[] {
    const inputs = [...this.#refusedInputs].filter(([path]) => !this.#refused.has(path));
    return [
      ...[...this.#refused].map(([path, bytes]) => ({ path, bytes })),
      ...inputs.map(([path, bytes]) => ({ path, bytes, capacity: false })),
    ].sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** An input read as it is, unless GitHub's size says it is over the limit: then refused, never downloaded. */
  async #readBounded(tree: ApiTreeReader, path: string): Promise<string | null> {
    const read = await tree.readWithin(path, MAX_FILE_CHARS);
    if ('text' in read) return read.text;
    this.#refusedInputs.set(path, read.tooLarge);
    return null;
  }

  /** A changed path detection reads, when reading sparingly; null otherwise. */
  async #candidate(path: string): Promise<ListedFile | null | undefined> {
    if (this.#exact === null || this.#exact.has(path) || !detectionReads(path)) return undefined;
    if (!(await this.#changed()).has(path)) return undefined;
    return (await this.#listFiles()).get(path) ?? null;
  }

  async #readHead(path: string): Promise<string | null> {
    const file = await this.#candidate(path);
    if (file === undefined) return this.#readBounded(this.headTree, path);
    if (await this.#binaryForTheFloor(this.headTree, path)) return null;
    const read = await this.headTree.readWithin(path, MAX_FILE_CHARS);
    if ('text' in read) return read.text;
    // What costs no download is asked first; the file's start, streamed, last.
    if (!(await this.#couldHoldCapacity(path, file))) {
      const start = await this.headTree.readStart(path, MAX_FILE_CHARS);
      // GitHub's size said more than the blob holds: it is within the limit after all.
      if (start?.whole) return start.text;
      if (!mightHoldCapacity(path, start?.text ?? null)) return null;
    }
    this.#refused.set(path, read.tooLarge);
    return null;
  }

  /** The cheap checks on what a head over the limit shows without a download: its diff, its base. */
  async #couldHoldCapacity(path: string, file: ListedFile | null): Promise<boolean> {
    const head = await this.headTree.entry(path);
    // The listed diff is of the PR's newest head; it speaks for this side only if the blob is the same.
    if (file?.patch && head !== null && head.sha === file.sha && mightHoldCapacity(path, shownAfter(file.patch))) return true;
    if (file?.status === 'added') return false;
    const before = file?.previousFilename ?? path;
    return mightHoldCapacity(before, await this.#readBase(before));
  }

  /**
   * A file no parser reads, which only the floor scans for GPU names, that GraphQL says is binary
   * (no text, though within the size GraphQL serves whole): it names no GPU, and is not downloaded.
   */
  async #binaryForTheFloor(tree: ApiTreeReader, path: string): Promise<boolean> {
    if (anyParserAccepts(path)) return false;
    const entry = await tree.entry(path);
    return entry !== null && entry.text === null && entry.size <= GRAPHQL_WHOLE_BYTES;
  }

  #readBase(path: string): Promise<string | null> {
    let pending = this.#bases.get(path);
    if (!pending) {
      pending = this.#fetchBase(path);
      this.#bases.set(path, pending);
    }
    return pending;
  }

  async #fetchBase(path: string): Promise<string | null> {
    const file = await this.#candidate(path);
    if (file === undefined) return this.#readBounded(this.baseTree, path);
    if (await this.#binaryForTheFloor(this.baseTree, path)) return null;
    if (file !== null) {
      const rebuilt = await this.#rebuiltBase(file);
      if (rebuilt !== undefined) return rebuilt;
    }
    // Detection reports nothing about the base side's size (it was there before the PR).
    const read = await this.baseTree.readWithin(path, MAX_FILE_CHARS);
    return 'text' in read ? read.text : null;
  }

  /**
   * The base side from the head side and the listed diff, when neither could hold capacity;
   * undefined when it must be read (the diff is missing, belongs to another head, or does not
   * apply, or either side passes a cheap check).
   */
  async #rebuiltBase(file: ListedFile): Promise<string | null | undefined> {
    const { filename: path, status } = file;
    if (status !== 'modified' && status !== 'added' && status !== 'removed') return undefined;
    const head = await this.headTree.entry(path);
    let headText: string | null = null;
    if (status === 'removed') {
      if (head !== null) return undefined;
    } else {
      // The listed diff is of the PR's newest head; it speaks for this side only if the blob is the same.
      if (head === null || head.text === null || head.sha !== file.sha) return undefined;
      headText = head.text;
    }
    let base: string | null = null;
    if (status !== 'added') {
      base = file.patch === null ? null : textBefore(headText ?? '', file.patch);
      if (base === null) return undefined;
    }
    // The floor's scan makes do with the rebuilt base (the merge base's text): only a parser's
    // numbers need the base commit's own.
    if (parsersMightHold(path, headText) || parsersMightHold(path, base)) return undefined;
    return base;
  }

  /**
   * Why some changed files could not be known, when GitHub's file list was cut short and the
   * trees could not make up for it; null when every changed path is known.
   */
  async unlistedFiles(): Promise<UnlistedFiles | null> {
    await this.#changed();
    return this.#unlisted;
  }

  #listFiles(): Promise<Map<string, ListedFile>> {
    this.#files ??= this.#listedPages().then(
      (answer: unknown) =>
        new Map(
          parseListedFiles(`the file list of pull request #${this.target.number}`, answer).map((f): [string, ListedFile] => [
            f.filename,
            {
              filename: f.filename,
              status: f.status,
              sha: typeof f.sha === 'string' ? f.sha : null,
              patch: typeof f.patch === 'string' ? f.patch : null,
              previousFilename: f.previous_filename ?? null,
            },
          ]),
        ),
    );
    return this.#files;
  }

  /**
   * Every page of the file list. With the PR's count of changed files known (the webhook gives
   * it), its pages are asked together, one round trip for all; a last page still full (files
   * pushed since) is followed page by page, as without the count.
   */
  async #listedPages(): Promise<unknown[]> {
    const params = { ...this.target.base, pull_number: this.target.number, per_page: FILES_PER_PAGE };
    const total = this.target.changedFiles;
    const pages = total === undefined ? 1 : Math.min(Math.max(1, Math.ceil(total / FILES_PER_PAGE)), MAX_FILE_PAGES);
    if (pages === 1) return this.octokit.paginate(this.octokit.rest.pulls.listFiles, params);
    const answers = await Promise.all(
      Array.from({ length: pages }, (_, i) => this.octokit.rest.pulls.listFiles({ ...params, page: i + 1 })),
    );
    // GitHub says there is more as it does to any paginating client: a `next` link.
    for (let page = pages; hasNext(answers[page - 1]?.headers.link) && page < MAX_FILE_PAGES; page++)
      answers.push(await this.octokit.rest.pulls.listFiles({ ...params, page: page + 1 }));
    return answers.flatMap((r) => r.data);
  }

  /**
   * GitHub lists at most 3,000 files of a pull request. A list shorter than the PR's count (or at
   * that cap when the count is unknown) is completed from the trees of the merge base and the
   * head; when they cannot be compared either, `unlistedFiles` says so, for the review to report.
   */
  async #completeListing(paths: Set<string>, listed: number): Promise<void> {
    const total = this.target.changedFiles;
    const cut = total === undefined ? listed >= MAX_LISTED_FILES : listed < total;
    if (!cut) return;
    const found = await changedByTrees(this.octokit, this.target);
    if ('reason' in found) {
      this.#unlisted = { listed, total: total ?? null, reason: found.reason };
      return;
    }
    for (const path of found.paths) paths.add(path);
  }
}

function hasNext(link: string | undefined): boolean {
  return link !== undefined && /rel="next"/.test(link);
}

/** GraphQL serves a blob's text whole up to this size; a smaller blob without text is binary. */
const GRAPHQL_WHOLE_BYTES = 512_000;

/** Files per page of the pull request's file list, GitHub's most. */
const FILES_PER_PAGE = 100;
/** Pages of it GitHub serves at most: 3,000 files. */
const MAX_FILE_PAGES = MAX_LISTED_FILES / FILES_PER_PAGE;

/**
 * Whether the base side will be read, not rebuilt, as far as the listing shows: its diff is
 * missing or is not a plain edit, or the diff's own lines pass a parser's cheap check (the
 * declarations it touches). A guess for prefetching only: what is read is decided as always.
 */
function baseLikelyRead(file: ListedFile): boolean {
  if (file.patch === null || (file.status !== 'modified' && file.status !== 'removed')) return true;
  return parsersMightHold(file.filename, file.patch);
}

/** A parser's cheap check, or the floor's (it may name a GPU), passes on the text. */
function mightHoldCapacity(path: string, text: string | null): boolean {
  return text !== null && detectionMightHold(path, text);
}

function parsersMightHold(path: string, text: string | null): boolean {
  return text !== null && PARSERS.some((p) => (p.acceptsPath?.(path) ?? true) && p.mightContain(path, text));
}

function normalise(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The directories holding `path`, the root (`''`) first. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}
