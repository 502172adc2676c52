import { UnreadablePathError, submoduleReason } from '../../domain/files.js';
import { LINK_MODE, SUBMODULE_MODE } from './listed-file.js';
import type { ApiTreeListing } from './tree-listing.js';
import type { ApiTreeReader } from './tree-reader.js';

const linkedDirectory = (dir: string) =>
  `in ${dir}, a symbolic link to a directory: the files it stands for were not read, so what it declares is unknown`;

/** Why a path is there on a side but is no file (see ApiChangeSet's #notAFile); null for a file or nothing. */
export async function notAFileAt(listing: ApiTreeListing, tree: ApiTreeReader, path: string): Promise<string | null> {
  const entry = await listing.entry(path);
  if (entry !== null && entry.mode === SUBMODULE_MODE) return submoduleReason(entry.sha);
  if (entry?.mode === LINK_MODE) return whyNoText(tree, path);
  if (entry !== null) return null;
  // Nothing of that name in its directory: is the directory itself inside a submodule or a link?
  const parts = path.split('/');
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const dir = parts.slice(0, depth).join('/');
    const above = await listing.entry(dir);
    if (above === null) continue;
    if (above.mode === SUBMODULE_MODE) return `in ${dir}, ${submoduleReason(above.sha)}`;
    if (above.mode === LINK_MODE) return linkedDirectory(dir);
    return null;
  }
  return null;
}

/**
 * The same answer for the base side, where only the policy's paths are asked (after their read
 * gave no text). From GraphQL's listing when it holds the directory; else from the contents API's
 * answer for the directory, which costs the call the policy's second path would have cost: its
 * names then answer that path with no call (ApiTreeReader.directory), where a listing of the base
 * commit was a call more. A path itself a link or a submodule is told by its own read; only
 * what stands above it is asked here.
 */
export async function notAFileOfBase(listing: ApiTreeListing, tree: ApiTreeReader, path: string): Promise<string | null> {
  const slash = path.lastIndexOf('/');
  if (slash < 0 || (await listing.listsWithoutCall(path.slice(0, slash)))) return notAFileAt(listing, tree, path);
  const parts = path.split('/');
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const dir = parts.slice(0, depth).join('/');
    const above = await tree.directory(dir);
    if (above === null) continue;
    switch (above.kind) {
      case 'submodule':
        return `in ${dir}, ${submoduleReason(above.sha)}`;
      case 'link':
        return linkedDirectory(dir);
      case 'other':
        return null;
      case 'dir':
        return depth === parts.length - 1 && above.names.has(parts[depth] ?? '') ? whyNoText(tree, path) : null;
    }
  }
  return null;
}

/**
 * Whether a path of the base is a plain directory, asked of the policy's paths once their read gave
 * no text: from GraphQL's listing of its directory when it holds one, else from the contents API's
 * answer for its directory (asked already by `notAFileOfBase`), where the name is listed yet reads
 * as no file. No call of its own beyond those.
 */
export async function isDirectoryOfBase(listing: ApiTreeListing, tree: ApiTreeReader, path: string): Promise<boolean> {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash);
  if (await listing.listsWithoutCall(dir)) return (await listing.entry(path))?.type === 'tree';
  const above = await tree.directory(dir);
  if (above?.kind !== 'dir' || !above.names.has(path.slice(slash + 1))) return false;
  // Listed, yet no file, no link and no submodule: the contents API answered it with a listing.
  return (await tree.read(path).catch(() => undefined)) === null;
}

/** Null when the path reads as a file; why not when its read says (a link leading nowhere it can follow). */
async function whyNoText(tree: ApiTreeReader, path: string): Promise<string | null> {
  try {
    await tree.read(path);
    return null;
  } catch (err) {
    if (err instanceof UnreadablePathError) return err.why;
    throw err;
  }
}

/**
 * The git blob id GitHub gives for a path on one side (a hash of its content, known without the
 * file being downloaded); null when there is none. A failure to ask is null too: a side once known
 * by its id then differs, so a grant bound to it lapses rather than holds on nothing.
 */
export async function blobId(tree: ApiTreeReader, path: string): Promise<string | null> {
  try {
    return (await tree.entry(path))?.sha ?? null;
  } catch {
    return null;
  }
}
