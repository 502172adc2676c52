import { InputError } from '../../domain/errors.js';
import type { TreeReader } from '../../domain/files.js';
import { dirsIn, filesIn } from './dir-reader.js';
import { git, gitOrThrow } from './git.js';
import { safeRelativePath } from './repo-path.js';

/** Regular files, executable or not; links and submodules are not files to read. */
const FILE_MODES = new Set(['100644', '100755']);

/** One side of a PR as a commit of a local git repository. */
export class GitReader implements TreeReader {
  readonly kind = 'git';
  private files: Promise<Map<string, string>> | undefined;

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

  async read(path: string): Promise<string | null> {
    const rel = safeRelativePath(path, this.label);
    const oid = (await this.listBlobs()).get(rel);
    if (oid === undefined) return null;
    const bytes = await gitOrThrow(this.repo, ['cat-file', 'blob', oid], `cannot read ${path} at ${this.label}`);
    return bytes.toString('utf8');
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
      }
    }
    return files;
  }
}
