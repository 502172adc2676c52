import { readOrWhy, UnreadablePathError } from '../../domain/index.js';
import type { DeclaredWorkload, TreeReader } from '../../domain/index.js';
import { MAX_FILE_CHARS } from '../../domain/limits.js';
import { mapLimit } from '../../util/map-limit.js';
import { declaredWorkloads } from './read-workloads.js';

/** Directories walked and YAML files read at most: a review reads manifests, not a monorepo. */
const MAX_TREE_DIRS = 500;
const MAX_MANIFEST_FILES = 200;

const SKIPPED_DIRS = /(^|\/)(\.git|node_modules|vendor)$/;

async function yamlPaths(tree: TreeReader): Promise<string[]> {
  if (tree.list === undefined) return [];
  const out: string[] = [];
  const queue = [''];
  for (let walked = 0; queue.length > 0 && walked < MAX_TREE_DIRS && out.length < MAX_MANIFEST_FILES; walked++) {
    const dir = queue.shift() as string;
    const [files, dirs] = await Promise.all([tree.list(dir), tree.dirs ? tree.dirs(dir) : Promise.resolve([])]);
    out.push(...files.filter((f) => /\.ya?ml$/i.test(f)));
    queue.push(...dirs.filter((d) => !SKIPPED_DIRS.test(d)));
  }
  return out.slice(0, MAX_MANIFEST_FILES);
}

/**
 * The GPU workloads the side's manifests declare, for a review with no catalog: the changed files
 * always, the rest of the tree as far as the reader lists it (breadth first, capped). Unreadable or
 * oversized files are skipped: a workload left out only leaves the need less known.
 */
export async function declaredInTree(tree: TreeReader, changed: readonly string[]): Promise<DeclaredWorkload[]> {
  const paths = [...new Set([...changed.filter((p) => /\.ya?ml$/i.test(p)), ...(await yamlPaths(tree))])];
  const texts = await mapLimit(paths, 8, async (path) => {
    const read = await readOrWhy(tree, path);
    // A path there but no file (a link leading out, a submodule) is named by detection on its file.
    const text = read instanceof UnreadablePathError ? null : read;
    return text === null || text.length > MAX_FILE_CHARS ? null : { path, text };
  });
  return declaredWorkloads(texts.filter((t): t is { path: string; text: string } => t !== null)).workloads;
}
