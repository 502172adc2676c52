import type { TreeReader } from '../../domain/index.js';
import { isHelmfilePath } from './helmfile-installs.js';
import { installsOf } from './installs-of.js';
import type { GitopsInstall } from './gitops-installs.js';

/**
 * The search for the Applications, ApplicationSets and HelmReleases of the tree is bounded: a
 * folder walk and a number of YAML files read. Past either, an install it did not reach may name
 * a changed values file, and the search says it was cut short.
 */
const MAX_DIRS = 2000;
const MAX_FILES = 600;
// Not the repository's own configuration: caches, vendored code, and Git's own folder.
const SKIP_DIR = /(^|\/)(\.git|node_modules|vendor|\.terraform|\.terragrunt-cache)$/;

export interface TreeInstalls {
  installs: { file: string; install: GitopsInstall }[];
  /** The walk stopped before the whole tree was read (or the tree cannot be walked). */
  truncated: boolean;
  /** The walk stopped at its bound of folders or YAML files (not merely a tree that cannot be walked). */
  cutOff: boolean;
}

/**
 * Every chart install the tree declares outside the given files (those, changed, are read as
 * Applications of their own): at head, which is the base side too for a file the PR leaves alone.
 * A chart's `templates/` are left out: they are not YAML until rendered.
 */
export async function installsInTree(
  skip: ReadonlySet<string>,
  io: {
    head: TreeReader;
    list: (dir: string) => Promise<string[]>;
    dirs?: (dir: string) => Promise<string[]>;
    repositories?: readonly string[];
  },
): Promise<TreeInstalls> {
  const found: TreeInstalls = { installs: [], truncated: io.dirs === undefined, cutOff: false };
  if (!io.dirs) return found;
  const queue = [''];
  let dirs = 0;
  let files = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (++dirs > MAX_DIRS) return { ...found, truncated: true, cutOff: true };
    const yaml = (await io.list(dir)).filter((p) => (/\.ya?ml$/i.test(p) || isHelmfilePath(p)) && !skip.has(p));
    files += yaml.length;
    // A folder's files read together: where reads are API calls, they share a query.
    const texts = await Promise.all(yaml.slice(0, Math.max(0, MAX_FILES - (files - yaml.length))).map((p) => io.head.read(p)));
    const gen = {
      read: (p: string) => io.head.read(p),
      list: io.list,
      dirs: io.dirs,
      ...(io.repositories ? { repositories: io.repositories } : {}),
    };
    for (const [i, text] of texts.entries()) {
      for (const install of await installsOf(yaml[i] ?? '', text ?? '', gen)) found.installs.push({ file: yaml[i] ?? '', install });
    }
    if (files > MAX_FILES) return { ...found, truncated: true, cutOff: true };
    queue.push(...(await io.dirs(dir)).filter((d) => !SKIP_DIR.test(d) && !/(^|\/)templates$/.test(d)).sort());
  }
  return found;
}
