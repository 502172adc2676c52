import { stat } from 'node:fs/promises';
import { InputError } from '../../domain/errors.js';
import { repositoryName } from '../../domain/files.js';
import type { ChangeSet } from '../../domain/files.js';
import { git } from './git.js';
import { changedPaths } from './changed-paths.js';
import type { LocalReader } from './changed-paths.js';
import { DirReader } from './dir-reader.js';
import { GitReader } from './git-reader.js';

export interface ChangeSetArgs {
  base: string;
  head: string;
  /** The git repository refs are read from; the current directory by default. */
  repo?: string;
}

/**
 * The two sides of a PR from the CLI's `--base`/`--head`: each an existing directory, or else a
 * git ref of `--repo`. Anything else is bad input naming the flag.
 */
export async function changeSetFromArgs(args: ChangeSetArgs): Promise<ChangeSet> {
  const repo = args.repo ?? process.cwd();
  const base = await openSide('--base', args.base, repo);
  const head = await openSide('--head', args.head, repo);
  // The checkout the head is in names the repository (a directory may be one of its own).
  const repositories = await ownNames((await isDirectory(args.head)) ? args.head : repo);
  let changed: Promise<string[]> | undefined;
  return {
    base,
    head,
    ...(repositories.length > 0 ? { repositories } : {}),
    changedPaths: () => {
      changed ??= changedPaths(base, head).catch((err: unknown) => {
        changed = undefined;
        throw err;
      });
      return changed.then((paths) => [...paths]);
    },
  };
}

async function openSide(flag: string, value: string, repo: string): Promise<LocalReader> {
  if (await isDirectory(value)) return new DirReader(value);
  try {
    return await GitReader.open(repo, value);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(`${flag} ${value}: not a directory, and ${err.message}`, { file: value, cause: err });
  }
}

/** The repository's names from its git remotes (`git remote -v`); none outside a checkout. */
async function ownNames(dir: string): Promise<string[]> {
  const result = await git(dir, ['remote', '-v']).catch(() => null);
  if (!result?.ok) return [];
  const names = result.value
    .toString('utf8')
    .split('\n')
    .map((line) => repositoryName(line.split(/\s+/)[1] ?? ''))
    .filter((n): n is string => n !== null);
  return [...new Set(names)].sort();
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
