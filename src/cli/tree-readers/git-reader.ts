import { InputError } from '../../domain/errors.js';
import { notAFileIn, resolvePath } from '../../domain/files.js';
import type { TreeEntries } from '../../domain/files.js';
import type { TreeReader } from '../../domain/files.js';
import type { TreeLinks } from '../../github/index.js';
import { dirsIn, filesIn } from './dir-reader.js';
import { git, gitBlobs, gitOrThrow } from './git.js';
import { safeRelativePath } from './repo-path.js';
import { decodeText } from '../../util/decode-text.js';

/** Regular files, executable or not; submodules are not files to read. */
const FILE_MODES = new Set(['100644', '100755']);
/** A symbolic link: its blob holds the target path. */
const LINK_MODE = '120000';
/** A git submodule: a commit of another repository, no blob here. */
const SUBMODULE_MODE = '160000';

/** One side of a PR as a commit of a local git repository. */
export class GitReader implements TreeReader {
  readonly kind = 'git';
  private files: Promise<Map<string, string>> | undefined;
  /** Symbolic links at the commit, path → blob id of the target path. */
  private readonly links = new Map<string, string>();
  /** Submodules at the commit, path → the commit of the other repository. */
  private readonly submodules = new Map<string, string>();
  /** What every link of the commit names, blob id → target, read at once on first need. */
  private linkTexts: Promise<Map<string, string>> | undefined;

  private constructor(
    readonly repo: string,
    readonly label: string,
    /** The commit the ref named when the reader was opened; later reads do not move with it. */
    readonly commit: string,
  ) {}

  /** Resolves `ref` to a commit up front, so a typo is reported once, naming the ref. */
  static async open(repo: string, ref: string): Promise<GitReader> {
    if (ref === '' || ref.startsWith('-') || ref.includes('\0')) {
      throw new InputError(`"${ref}" is not a git ref`);
    }
    const result = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    const commit = result.ok ? result.value.toString('utf8').trim() : '';
    if (/^[0-9a-f]{40,64}$/.test(commit)) return new GitReader(repo, ref, commit);
    const inRepo = await git(repo, ['rev-parse', '--git-dir']);
    if (!inRepo.ok) throw new InputError(`${repo} is not a git repository, so "${ref}" cannot be read from it`);
    throw new InputError(`"${ref}" is not a commit, branch or tag of the git repository ${repo}`);
  }

  /**
   * The file's text. A symbolic link reads as its target inside the tree, as kustomize or Argo CD
   * would apply it, and so does a path through a linked directory. A link leading outside, to
   * nothing, to a directory or round a loop, and a submodule or a path inside one, are an
   * UnreadablePathError naming the path: there, but no file of this repository.
   */
  async read(path: string): Promise<string | null> {
    const at = await resolvePath(safeRelativePath(path, this.label), path, await this.entries());
    if (at === null) return null;
    const oid = (await this.listBlobs()).get(at) as string;
    const bytes = await gitOrThrow(this.repo, ['cat-file', 'blob', oid], `cannot read ${path} at ${this.label}`);
    return decodeText(bytes);
  }

  /** Why the path is there but is no file (see TreeReader.notAFile); null otherwise. */
  async notAFile(path: string): Promise<string | null> {
    return notAFileIn(safeRelativePath(path, this.label), path, await this.entries());
  }

  /** Whether the path is a directory of the commit holding files (see TreeReader.isDirectory). */
  async isDirectory(path: string): Promise<boolean> {
    return (await this.entries()).isDirectory(safeRelativePath(path, this.label));
  }

  private async entries(): Promise<TreeEntries> {
    const blobs = await this.listBlobs();
    return {
      isFile: (p) => blobs.has(p),
      linkAt: async (p) => {
        const oid = this.links.get(p);
        return oid === undefined ? undefined : this.linkText(oid);
      },
      submoduleAt: (p) => this.submodules.get(p),
      isDirectory: async (p) => (await this.dirs(p)).length > 0 || (await this.list(p)).length > 0,
      hasSpecial: this.links.size > 0 || this.submodules.size > 0,
    };
  }

  /** Files directly inside `dir` at the commit (repository path, `''` for the root). */
  async list(dir: string): Promise<string[]> {
    return filesIn((await this.listBlobs()).keys(), dir);
  }

  /** Directories directly inside `dir` at the commit that hold files. */
  async dirs(dir: string): Promise<string[]> {
    return dirsIn((await this.listBlobs()).keys(), dir);
  }

  /** The symbolic links at the commit, and a way to read where each leads, for `linksToChanged`. */
  async treeLinks(): Promise<TreeLinks> {
    await this.listBlobs();
    return {
      links: this.links,
      target: (oid) => this.linkText(oid),
    };
  }

  /**
   * Where the link whose blob is `oid` leads. Every link of the commit is read in one git call the
   * first time one is asked: a chain or a tree of thousands of links costs one process.
   */
  private async linkText(oid: string): Promise<string> {
    this.linkTexts ??= gitBlobs(this.repo, [...new Set(this.links.values())], `cannot read the links at ${this.label}`).then(
      (blobs) => new Map([...blobs].map(([id, bytes]) => [id, bytes.toString('utf8')])),
    );
    this.linkTexts.catch(() => (this.linkTexts = undefined));
    const text = (await this.linkTexts).get(oid);
    if (text === undefined) throw new InputError(`cannot read the link blob ${oid} at ${this.label}`);
    return text;
  }

  /** Symbolic links and submodules at the commit, path → the id of the link's blob or the submodule's commit. */
  async otherEntries(): Promise<Map<string, string>> {
    await this.listBlobs();
    return new Map([...this.links, ...this.submodules]);
  }

  /** Every regular file at the commit, path → blob id; listed once per reader. */
  listBlobs(): Promise<Map<string, string>> {
    this.files ??= this.lsTree().catch((err: unknown) => {
      this.files = undefined;
      throw err;
    });
    return this.files;
  }

  private async lsTree(): Promise<Map<string, string>> {
    const out = await gitOrThrow(this.repo, ['ls-tree', '-r', '-z', '--full-tree', this.commit], `cannot list the files of ${this.label}`);
    const files = new Map<string, string>();
    // Each record: "<mode> SP <type> SP <oid> TAB <path>" ending in NUL.
    for (const record of out.toString('utf8').split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, oid] = record.slice(0, tab).split(' ');
      if (type === 'blob' && mode !== undefined && FILE_MODES.has(mode) && oid !== undefined) {
        files.set(record.slice(tab + 1), oid);
      } else if (type === 'blob' && mode === LINK_MODE && oid !== undefined) {
        this.links.set(record.slice(tab + 1), oid);
      } else if (type === 'commit' && mode === SUBMODULE_MODE && oid !== undefined) {
        this.submodules.set(record.slice(tab + 1), oid);
      }
    }
    return files;
  }
}
