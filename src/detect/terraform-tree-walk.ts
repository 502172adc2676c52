/** Folders that are tools' caches or other repositories, never configuration of this tree. */
const SKIPPED_DIRS = /(^|\/)(\.terragrunt-cache|\.terraform|\.git|node_modules)$/;

/** What the walk reads: the folders directly inside a folder (TreeReader `dirs`), where the reader lists them. */
export interface WalkIo {
  dirs?: (dir: string) => Promise<string[]>;
}

/**
 * The tree's folders from the root, breadth first, at most `max`; `complete` is false when the
 * walk stopped at the bound or the reader lists no folders (then only the root is given), so a
 * caller that finds nothing knows it may not have looked everywhere.
 */
export async function foldersOfTree(io: WalkIo, max: number): Promise<{ dirs: string[]; complete: boolean }> {
  if (!io.dirs) return { dirs: [''], complete: false };
  const dirs: string[] = [];
  const queue = [''];
  while (queue.length > 0) {
    if (dirs.length >= max) return { dirs, complete: false };
    const dir = queue.shift() as string;
    dirs.push(dir);
    queue.push(...(await io.dirs(dir)).filter((d) => !SKIPPED_DIRS.test(d)));
  }
  return { dirs, complete: true };
}
