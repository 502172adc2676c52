import { InputError } from '../../domain/errors.js';
import { MAX_LINK_HOPS, linkTarget } from '../../domain/files.js';
import type { TreeReader } from '../../domain/files.js';
import { dirsIn, filesIn } from './dir-reader.js';
import { git, gitOrThrow } from './git.js';
import { safeRelativePath } from './repo-path.js';

/** Regular files, executable or not; submodules are not files to read. */
const FILE_MODES = new Set(['100644', '100755']);
/** A symbolic link: its blob holds the target path. */
const LINK_MODE = '120000';

/** One side of a PR as a commit of a local git repository. */
export class GitReader implements TreeReader {
  readonly kind = 'git';
  private files: Promise<Map<string, string>> | undefined;
  /** Symbolic links at the commit, path → blob id of the target path. */
  private readonly links = new Map<string, string>();

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
    const commit = result.stdout.toString('utf8').trim();
    if (result.ok && /^[0-9a-f]{40,64}$/.test(commit)) return new GitReader(repo, ref, commit);
    const inRepo = await git(repo, ['rev-parse', '--git-dir']);
    if (!inRepo.ok) throw new InputError(`${repo} is not a git repository, so "${ref}" cannot be read from it`);
    throw new InputError(`"${ref}" is not a commit, branch or tag of the git repository ${repo}`);
  }

  /**
   * The file's text. A symbolic link reads as its target inside the tree, as kustomize or Argo CD
   * would apply it; one leading outside, to nothing, or round a loop is an input error naming it,
   * never read as the file removed.
   */
  async read(path: string): Promise<string | null> {
    const rel = safeRelativePath(path, this.label);
    const blobs = await this.listBlobs();
    let at = rel;
    for (let hops = 0; ; hops++) {
      const oid = blobs.get(at);
      if (oid !== undefined) {
        const bytes = await gitOrThrow(this.repo, ['cat-file', 'blob', oid], `cannot read ${path} at ${this.label}`);
        return bytes.toString('utf8');
      }
      const link = this.links.get(at);
      if (link === undefined) {
        if (hops === 0) return null;
        throw new InputError(`${path} at ${this.label} is a symbolic link to ${at}, which is not a file there`, { file: path });
      }
      if (hops >= MAX_LINK_HOPS) throw new InputError(`${path} at ${this.label} is a symbolic link that loops`, { file: path });
      const target = (await gitOrThrow(this.repo, ['cat-file', 'blob', link], `cannot read ${path} at ${this.label}`)).toString('utf8');
      const next = linkTarget(at, target);
      if (next === null) throw new InputError(`${path} at ${this.label} is a symbolic link leading outside the repository`, { file: path });
      at = next;
    }
  }

  /** Files directly inside `dir` at the commit (repository path, `''` for the root). */
  async list(dir: string): Promise<string[]> {
    return filesIn((await this.listBlobs()).keys(), dir);
  }

  /** Directories directly inside `dir` at the commit that hold files. */
  async dirs(dir: string): Promise<string[]> {
    return dirsIn((await this.listBlobs()).keys(), dir);
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
      }
    }
    return files;
  }
}
