import { anyParserAccepts, detectionReads, mayBeApplied } from '../../detect/index.js';
import { UnreadablePathError } from '../../domain/files.js';
import type { ChangeSet } from '../../domain/files.js';
import { MAX_FILE_CHARS } from '../../domain/limits.js';
import { parseListedFiles } from './answers.js';
import { ApiTreeReader } from './tree-reader.js';
import type { GitHubClient, PullRequestTarget } from './client.js';
import type { BlobAt } from './graphql-blob-query.js';
import type { GraphqlBlobs } from './graphql-blobs.js';
import { linkedPaths } from './linked-changes.js';
import type { ReadBudget } from './read-budget.js';
import {
  ancestors,
  baseLikelyRead,
  FILES_PER_PAGE,
  GRAPHQL_WHOLE_BYTES,
  hasNext,
  MAX_COMPARED_FILES,
  MAX_FILE_PAGES,
  normalise,
  parsersMightHold,
  REBUILT_BASE_MAX_CHARS,
  webHost,
} from './listed-file.js';
import type { ListedFile } from './listed-file.js';
import { textBefore } from './patch.js';
import { refusalMessage } from './refused-files.js';
import type { RefusedFile } from './refused-files.js';
import { ApiTreeListing } from './tree-listing.js';
import { blobId, isDirectoryOfBase, notAFileAt, notAFileOfBase } from './not-a-file.js';
import type { PolicySide, SideReader } from './side-probes.js';
import { changedByTrees, MAX_LISTED_FILES } from './tree-diff.js';
import type { UnlistedFiles } from './tree-diff.js';

export { ApiTreeReader } from './tree-reader.js';

/**
 * The pull request's two sides and the paths its diff touches (old names of renames too).
 *
 * By default both sides are read as they are at the base and head commits. `readSparingly`
 * (what the App does) saves reads on the changed files detection asks for:
 * - a changed file whose head side GitHub says is over the size limit is not downloaded: read as a
 *   whole it cannot be, and it is not judged by a part of it (its start, its diff), so its read is
 *   an UnreadablePathError, which detection reports as an error on the file, never as its objects
 *   removed or unchanged;
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
  readonly base: PolicySide;
  readonly head: SideReader;
  /** The pull request's repository, so a Terraform module naming it by URL is read from the tree. */
  readonly repositories: readonly string[];
  readonly baseTree: ApiTreeReader;
  readonly headTree: ApiTreeReader;
  #files: Promise<Map<string, ListedFile>> | null = null;
  #paths: Promise<Set<string>> | null = null;
  #exact: Set<string> | null = null;
  readonly #bases = new Map<string, Promise<string | null>>();
  #unlisted: UnlistedFiles | null = null;
  readonly #refusedInputs = new Map<string, number>();
  readonly #headListing: ApiTreeListing;

  constructor(
    private readonly octokit: GitHubClient,
    private readonly target: PullRequestTarget,
    private readonly blobs: GraphqlBlobs | null = null,
    /** Bytes of changed files the review reads at most (read-budget.ts); none: unbounded but per file. */
    private readonly budget: ReadBudget | null = null,
  ) {
    this.repositories = [`${webHost(octokit)}/${target.base.owner}/${target.base.repo}`.toLowerCase()];
    // Listings are by commit, like the reads: a directory's files as they are at that side.
    const linkTexts = new Map<string, Promise<string>>();
    const baseListing = new ApiTreeListing(octokit, target.base, target.baseSha, blobs, linkTexts);
    const headListing = new ApiTreeListing(octokit, target.head, target.headSha, blobs, linkTexts);
    this.baseTree = new ApiTreeReader(octokit, target.base, target.baseSha, blobs, baseListing);
    this.headTree = new ApiTreeReader(octokit, target.head, target.headSha, blobs, headListing);
    this.#headListing = headListing;
    this.base = {
      label: this.baseTree.label,
      read: (path) => this.#readBase(normalise(path)),
      list: (dir) => baseListing.list(dir),
      dirs: (dir) => baseListing.dirs(dir),
      // The policy's paths are asked here (review/policy-file.ts): without GraphQL's listing, from
      // their directory's contents, which then answers its other paths too, not from a listing of the base.
      notAFile: (path) => notAFileOfBase(baseListing, this.baseTree, normalise(path)),
      contentId: (path) => blobId(this.baseTree, normalise(path)),
      isDirectory: (path) => isDirectoryOfBase(baseListing, this.baseTree, normalise(path)),
    };
    this.head = {
      label: this.headTree.label,
      read: (path) => this.#readHead(normalise(path)),
      list: (dir) => headListing.list(dir),
      dirs: (dir) => headListing.dirs(dir),
      notAFile: (path) => this.#notAFile(headListing, normalise(path)),
      contentId: (path) => blobId(this.headTree, normalise(path)),
    };
  }

  /**
   * Why a path is there at head but is no file, from the mode its directory's tree gives it (a
   * submodule: 160000; a link: 120000, read to see where it leads), or from a directory above it
   * that is a submodule or a link. A path the file list says was removed is not there.
   */
  async #notAFile(listing: ApiTreeListing, path: string): Promise<string | null> {
    const listed = (await this.#listFiles()).get(path);
    if (listed?.status === 'removed' || [...(await this.#listFiles()).values()].some((f) => f.previousFilename === path)) return null;
    return notAFileAt(listing, this.headTree, path);
  }

  async changedPaths(): Promise<string[]> {
    return [...(await this.#changed())];
  }

  #changed(): Promise<Set<string>> {
    // The head's links, listed while the file list is asked: a link to a changed file is a changed path.
    const addLinked = this.#paths ? null : linkedPaths(this.#headListing, this.headTree.label);
    this.#paths ??= this.#listFiles().then(async (files) => {
      const paths = new Set<string>();
      for (const file of files.values()) {
        // A rename's old path still holds the capacity the base side declared.
        if (file.previousFilename) paths.add(file.previousFilename);
        paths.add(file.filename);
      }
      this.#prefetch(files.values());
      await this.#completeListing(paths, files.size);
      await addLinked?.(paths);
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
    const parents = new Map<string, BlobAt>();
    for (const file of files) {
      if (file.status !== 'removed') {
        const parent = ancestors(file.filename).at(-1) ?? '';
        parents.set(parent, { repo: head, ref: headSha, path: parent });
      }
      if (file.status !== 'removed' && detectionReads(file.filename)) {
        wanted.push({ repo: head, ref: headSha, path: file.filename });
        for (const dir of ancestors(file.filename)) dirs.set(dir, { repo: head, ref: headSha, path: dir });
      }
      const before = file.previousFilename ?? file.filename;
      if (file.status !== 'added' && detectionReads(before))
        (baseLikelyRead(file) ? wanted : spare).push({ repo: base, ref: baseSha, path: before });
    }
    this.blobs.prefetch(wanted);
    // Each changed path's directory at head, whose tree says what the path is (a file, a link, a
    // submodule): detection asks it of every changed path, and it rides in the same query.
    this.blobs.prefetchTrees(parents.values());
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

  /**
   * Inputs read as they are (the catalog, a load-test file, the policy, a kustomize base) not
   * downloaded for their size. A changed file detection reads that is over the limit is not here:
   * its read is an UnreadablePathError, which detection reports on the file.
   */
  refusedFiles(): RefusedFile[] {
    return [...this.#refusedInputs].map(([path, bytes]) => ({ path, bytes, capacity: false })).sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /**
   * An input read as it is, unless GitHub's size says it is over the limit: then refused, never
   * downloaded. Within the limit it is charged to the review's read budget as a changed file is:
   * the files readers fetch beside the changed ones (values files, modules, bases, flavors,
   * catalogs) are as many and as large as a pull request makes them. Past the budget it is an
   * UnreadablePathError naming it, which detection reports on the file: never read as absent.
   */
  async #readBounded(tree: ApiTreeReader, path: string): Promise<string | null> {
    if (this.budget !== null) {
      const key = `${tree.label}:${path}`;
      if (this.budget.refusesUnasked(key)) throw new UnreadablePathError(path, this.budget.spentRefusal());
      const entry = await tree.entry(path);
      if (entry !== null && entry.size <= MAX_FILE_CHARS && !this.budget.take(key, entry.size))
        throw new UnreadablePathError(path, this.budget.refusal(entry.size, false));
    }
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
    if (!(await this.#withinBudget(this.headTree, path))) return null;
    const read = await this.headTree.readWithin(path, MAX_FILE_CHARS);
    if ('text' in read) return read.text;
    // Documentation, lock files and binaries are never applied: over the limit, not read, as the CLI.
    if (!mayBeApplied(path)) return null;
    // Unread as a whole, it is not judged by a part (its start, its diff): it is unreadable.
    throw new UnreadablePathError(path, refusalMessage(read.tooLarge));
  }

  /**
   * Charges a changed file's side to the review's read budget, by GitHub's size, before its text
   * is downloaded (over GraphQL's whole size) or handed to the review. Past the budget, a file that
   * may be applied is an UnreadablePathError naming the budget, on either side: a base side left
   * out would read as absent, its capacity as removed. One never applied (documentation, lock
   * files, binaries) is not read, as over the size limit. A file over the size limit is left to
   * the size check, and costs nothing. False: not read.
   */
  async #withinBudget(tree: ApiTreeReader, path: string): Promise<boolean> {
    if (this.budget === null) return true;
    const entry = await tree.entry(path);
    if (entry === null || entry.size > MAX_FILE_CHARS) return true;
    if (this.budget.take(`${tree.label}:${path}`, entry.size)) return true;
    if (!mayBeApplied(path)) return false;
    throw new UnreadablePathError(path, this.budget.refusal(entry.size));
  }

  /**
   * A file no parser reads, which only the floor scans for GPU names, that GraphQL says is binary
   * (no text, though within the size GraphQL serves whole): it names no GPU, and is not downloaded.
   */
  async #binaryForTheFloor(tree: ApiTreeReader, path: string): Promise<boolean> {
    if (anyParserAccepts(path)) return false;
    const entry = await tree.entry(path);
    return entry !== null && entry.text === null && entry.withheld !== true && entry.size <= GRAPHQL_WHOLE_BYTES;
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
    if (!(await this.#withinBudget(this.baseTree, path))) return null;
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
    // Rebuilding and the cheap checks run on the App's thread, which serves every webhook and
    // /ping: over a small size, the base is read as it is (in the review's budget) instead.
    if ((headText?.length ?? 0) > REBUILT_BASE_MAX_CHARS) return undefined;
    let base: string | null = null;
    if (status !== 'added') {
      base = file.patch === null ? null : textBefore(headText ?? '', file.patch);
      if (base === null) return undefined;
    }
    if ((base?.length ?? 0) > REBUILT_BASE_MAX_CHARS) return undefined;
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
          parseListedFiles(
            this.target.compared
              ? `the files changed by the merge group of pull request #${this.target.number}`
              : `the file list of pull request #${this.target.number}`,
            answer,
          ).map((f): [string, ListedFile] => [
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
    if (this.target.compared) return this.#comparedFiles();
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

  /** A comparison's files, all on its first page (GitHub lists at most 300; the trees find the rest). */
  async #comparedFiles(): Promise<unknown[]> {
    const { data } = await this.octokit.rest.repos.compareCommitsWithBasehead({
      ...this.target.base,
      basehead: `${this.target.baseSha}...${this.target.headSha}`,
      per_page: 1,
    });
    return data.files ?? [];
  }

  /**
   * GitHub lists at most 3,000 files of a pull request. A list shorter than the PR's count (or at
   * that cap when the count is unknown) is completed from the trees of the merge base and the
   * head; when they cannot be compared either, `unlistedFiles` says so, for the review to report.
   */
  async #completeListing(paths: Set<string>, listed: number): Promise<void> {
    const total = this.target.changedFiles;
    const cut = this.target.compared ? listed >= MAX_COMPARED_FILES : total === undefined ? listed >= MAX_LISTED_FILES : listed < total;
    if (!cut) return;
    const found = await changedByTrees(this.octokit, this.target);
    if ('reason' in found) {
      this.#unlisted = { listed, total: total ?? null, reason: found.reason };
      return;
    }
    for (const path of found.paths) paths.add(path);
  }
}
