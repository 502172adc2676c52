import { dirOf } from '../kit/paths.js';

interface Listing {
  list: (dir: string) => Promise<string[]>;
  dirs?: (dir: string) => Promise<string[]>;
}

/**
 * The head side's listing with the changed paths added. A pull request that removes a folder
 * leaves it out of the head's listing, but the base side held it: an ApplicationSet's Git
 * generator walking the base must still find it there, so the Applications it made at base are
 * counted (and their removal is a decrease). At head the added paths read as absent, and a folder
 * whose files all read as absent is no element (`present`).
 */
export function withChangedPaths<T extends Listing>(io: T, changed: readonly string[]): T {
  const files = new Map<string, Set<string>>();
  const folders = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(value);
  };
  for (const path of changed) {
    add(files, dirOf(path), path);
    for (let child = dirOf(path); child !== ''; child = dirOf(child)) add(folders, dirOf(child), child);
  }
  const merged = async (own: Promise<string[]>, more: Set<string> | undefined) => (more ? [...new Set([...(await own), ...more])] : own);
  const dirs = io.dirs?.bind(io);
  return {
    ...io,
    list: (dir: string) => merged(io.list(dir), files.get(dir)),
    ...(dirs ? { dirs: (dir: string) => merged(dirs(dir), folders.get(dir)) } : {}),
  };
}
