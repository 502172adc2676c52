import { unifiedPatch } from './fake-repo-diff.js';
import type { RepoId } from './fake-repo-state.js';
import { gitBlobSha, specialOf } from './fake-repo-trees.js';

/**
 * GitHub's documented limits on one file's diff ("Repository limits": 500 KB of raw diff data or
 * 20,000 lines), past which the file list leaves its patch out.
 */
export const PATCH_LIMIT = 500 * 1024;
const PATCH_LINE_LIMIT = 20_000;

/** The two sides a file list compares, and the renames between them. */
export interface Sides {
  baseFiles: Record<string, string>;
  headFiles: Record<string, string>;
  headSha: string;
  renames?: Record<string, string>;
}

/**
 * The PR's file list: a path per change (a rename under its new name with `previous_filename`),
 * a link or a submodule as the path it is (a link's patch is its target, a submodule's a
 * `Subproject commit` line), a path whose kind changed (a file turned link or submodule) listed
 * `changed`, and the patch left out past GitHub's limits for one file's diff.
 */
export function changedFiles(sides: Sides, repo: RepoId, patchLimit: number): Record<string, unknown>[] {
  const { baseFiles, headFiles, renames = {} } = sides;
  const base = sideView(baseFiles);
  const head = sideView(headFiles);
  const renamedFrom = new Set(Object.values(renames));
  const out: Record<string, unknown>[] = [];
  for (const path of new Set([...base.keys(), ...head.keys()])) {
    if (renamedFrom.has(path)) continue;
    const before = base.get(renames[path] ?? path);
    const after = head.get(path);
    // A pure rename is still listed, as GitHub does.
    if (before?.key === after?.key && renames[path] === undefined) continue;
    const status =
      renames[path] !== undefined
        ? 'renamed'
        : before === undefined
          ? 'added'
          : after === undefined
            ? 'removed'
            : before.kind !== after.kind
              ? 'changed'
              : 'modified';
    const patch = unifiedPatch(before?.text, after?.text);
    const tooLarge = patch === undefined || Buffer.byteLength(patch) > patchLimit || patch.split('\n').length > PATCH_LINE_LIMIT;
    const web = `https://github.com/${repo.owner}/${repo.repo}`;
    out.push({
      sha: (after ?? before)?.sha ?? null,
      filename: path,
      blob_url: `${web}/blob/${sides.headSha}/${path}`,
      raw_url: `${web}/raw/${sides.headSha}/${path}`,
      contents_url: `https://api.github.com/repos/${repo.owner}/${repo.repo}/contents/${path}?ref=${sides.headSha}`,
      status,
      additions: 1,
      deletions: 1,
      changes: 2,
      // GitHub leaves the patch out of a diff too large to show.
      ...(tooLarge ? {} : { patch }),
      ...(renames[path] === undefined ? {} : { previous_filename: renames[path] }),
    });
  }
  return out;
}

/** One side of a path as the file list compares it: its kind, what its diff shows, its id. */
interface SideEntry {
  kind: 'file' | 'link' | 'submodule';
  /** The text its patch is made of. */
  text: string;
  sha: string;
  /** Equal at both sides when the path did not change. */
  key: string;
}

function sideView(files: Record<string, string>): Map<string, SideEntry> {
  const out = new Map<string, SideEntry>();
  for (const [path, text] of Object.entries(files))
    out.set(path, { kind: 'file', text, sha: gitBlobSha(Buffer.from(text, 'utf8')), key: `file:${text}` });
  for (const [path, e] of Object.entries(specialOf(files))) {
    if ('link' in e) out.set(path, { kind: 'link', text: e.link, sha: gitBlobSha(Buffer.from(e.link, 'utf8')), key: `link:${e.link}` });
    else
      out.set(path, { kind: 'submodule', text: `Subproject commit ${e.submodule}\n`, sha: e.submodule, key: `submodule:${e.submodule}` });
  }
  return out;
}
