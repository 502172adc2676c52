import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TreeReader } from '../domain/index.js';
import type { GivenCatalog } from '../review/index.js';
import { UsageError } from './args.js';
import { readInputFile } from './read-input.js';
import { git } from './tree-readers/git.js';

/**
 * What a file named on the command line is read against: the directory the head side is checked
 * out in (null when the review has none, as with `--pr`) and the base side of the review.
 */
export interface CheckoutSides {
  headRoot: string | null;
  base: TreeReader;
}

/**
 * The checkout a local review's head lives in: the head directory, or else the work tree of the
 * git repository the refs name (CI checks the pull request out there, whichever ref `--head` names).
 * Null when there is none (a bare repository).
 */
export async function headCheckout(head: string, repo: string | undefined): Promise<string | null> {
  if (await isDirectory(head)) return head;
  const top = await git(repo ?? process.cwd(), ['rev-parse', '--show-toplevel']).catch(() => null);
  const dir = top?.ok ? top.value.toString('utf8').trim() : '';
  return dir === '' ? null : dir;
}

/**
 * Reads a file the operator names on the command line (`--config`, `--snapshot`). A file inside
 * the checkout under review is the pull request's to write: a CI job that runs
 * `review --config ci/gpu-policy.yml --snapshot telemetry/snapshot.json` in the pull request's
 * checkout would otherwise judge it by a policy and a "measurement" it wrote itself. So such a file
 * is read as the base side has it, as the App reads the policy from the base branch and a load test
 * from the base; one the base does not hold decides nothing, and the review stops naming it.
 * `note` says when the checkout's copy differs, so a CI log shows which one was used. Null for a
 * file outside the checkout: the caller reads it from disk as it stands.
 */
export async function readOperatorInput(
  flag: string,
  file: string,
  sides: CheckoutSides,
  note: (text: string) => void,
): Promise<string | null> {
  const path = sides.headRoot === null ? null : await insideCheckout(file, sides.headRoot);
  if (path === null) return null;
  const based = await sides.base.read(path);
  if (based === null) {
    throw new UsageError(
      `${flag} ${file} is inside the checkout under review (${path}) and ${sides.base.label} has no such file: ` +
        'a file the pull request adds cannot decide its own review; keep it outside the checkout, or merge it first',
    );
  }
  const checkedOut = await readInputFile(flag, file).catch(() => null);
  if (checkedOut !== based) {
    note(
      `gpu-justify: ${flag} ${file}: read as ${sides.base.label} has it (${path}); ` +
        'the checkout under review holds another version, and a pull request cannot change what it is judged by',
    );
  }
  return based;
}

/**
 * The catalog `--catalog` names. One inside the checkout under review is the repository's own
 * catalog, which the pull request edits: it is judged as the head's catalog is, against the base
 * side's copy at the same path, so demand the pull request declares there (an added entry, a
 * raised one) does not justify it by itself. Read whole as both sides, it would read every entry
 * as kept. A file outside the checkout is the operator's: both sides, as before.
 */
export async function readGivenCatalog(file: string, sides: CheckoutSides): Promise<GivenCatalog> {
  const text = await readInputFile('--catalog', file);
  const path = sides.headRoot === null ? null : await insideCheckout(file, sides.headRoot);
  if (path === null) return { file, text };
  // A base copy that is no file (a link out of the tree, a submodule) declares nothing: every entry is the PR's.
  const base = await sides.base.read(path).catch(() => null);
  return { file: path, text, base };
}

/**
 * The repository path `file` has inside `root`, or null when it lies outside. Asked lexically and
 * through links both: a path spelt through a link into the checkout, or a link in it, is still in it.
 */
async function insideCheckout(file: string, root: string): Promise<string | null> {
  const roots = unique([resolve(root), await realpath(root).catch(() => null)]);
  const files = unique([resolve(file), await realpath(file).catch(() => null), await realParent(file)]);
  for (const f of files) {
    for (const r of roots) {
      const rel = relative(r, f);
      if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return rel.split(sep).join('/');
    }
  }
  return null;
}

/** The file under its folder's real path: a file not (or no longer) there still has a place. */
async function realParent(file: string): Promise<string | null> {
  const full = resolve(file);
  const cut = full.lastIndexOf(sep);
  const parent = await realpath(full.slice(0, cut) || sep).catch(() => null);
  return parent === null ? null : `${parent}${sep}${full.slice(cut + 1)}`;
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
