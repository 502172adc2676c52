import { DEFAULT_POLICY, UnreadablePathError, diagnostic } from '../domain/index.js';
import type { TreeReader } from '../domain/index.js';
import { POLICY_PATHS } from './input.js';
import type { LoadedPolicy } from './input.js';

/** The base side's own policy file: its text, an unread policy naming why, or none at all. */
export type LocalPolicy = { kind: 'file'; path: string; text: string } | { kind: 'unread'; loaded: LoadedPolicy } | { kind: 'none' };

/**
 * Finds the policy among POLICY_PATHS on the base side. A path that is there but gives no text
 * (a submodule, a link out of the tree, to nothing or round a loop, a plain directory, a file
 * refused for its size) is not "no policy": a repository's `mode: enforce` would then silently
 * become the defaults. It stops the search, and the policy is unread, naming the file and why.
 */
export async function readLocalPolicy(base: TreeReader): Promise<LocalPolicy> {
  for (const path of POLICY_PATHS) {
    const why = await readPolicyPath(base, path);
    if (typeof why === 'string') return { kind: 'unread', loaded: unreadPolicy(path, why) };
    if (why !== null) return { kind: 'file', path, text: why.text };
  }
  return { kind: 'none' };
}

/** Why a plain directory where a policy file should be is not read as "no policy". */
const POLICY_DIRECTORY = 'a directory, not a file: no policy can be read from it, and a file inside it is no policy gpu-justify reads';

/**
 * One policy path on one side: the text, or why a path that is there gave none (a submodule, a
 * link out of the tree, to nothing, round a loop or to a directory, a plain directory, a file not
 * downloaded for its size); null only when nothing is there. The repository's own policy and an
 * inherited one (`_extends`, the organisation's `.github`) are read through this alike.
 */
export async function readPolicyPath(base: TreeReader, path: string): Promise<{ text: string } | string | null> {
  let text: string | null;
  try {
    text = await base.read(path);
  } catch (err) {
    if (err instanceof UnreadablePathError) return err.why;
    throw err;
  }
  if (text !== null) return { text };
  const notAFile = (await base.notAFile?.(path)) ?? null;
  if (notAFile !== null) return notAFile;
  // A blob id for a path that gave no text: a file there, not downloaded (over the size limit).
  const id = (await base.contentId?.(path)) ?? null;
  if (id !== null) return 'a file there that was not read (over the size limit gpu-justify reads)';
  return (await base.isDirectory?.(path)) === true ? POLICY_DIRECTORY : null;
}

function unreadPolicy(path: string, why: string): LoadedPolicy {
  const message = `${why}; the policy is not known, so the review runs as in enforce mode and accepts no override until it can be read`;
  return { policy: DEFAULT_POLICY, diagnostics: [diagnostic(path, null, 'error', message)], file: path, unread: [path] };
}
