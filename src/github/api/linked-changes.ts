import { detectionReads } from '../../detect/index.js';
import { GpuJustifyError } from '../../domain/errors.js';
import { MAX_LINK_HOPS, asksForDirectory, linkTarget } from '../../domain/files.js';

/** Distinct link blobs read to learn where links lead, at most, per review. */
export const MAX_LINK_READS = 100;

/** One side's symbolic links, and a way to read where each leads. */
export interface TreeLinks {
  /** Every symbolic link of the tree, path → the id of its blob. */
  links: ReadonlyMap<string, string>;
  /** The text of a link's blob: the path it names, relative to the link. */
  target(sha: string): Promise<string>;
}

/** More links than the review reads lead somewhere: which of them lead to a changed file is unknown. */
class LinksUnfollowedError extends GpuJustifyError {
  override readonly kind = 'github-links-unfollowed';

  constructor(
    readonly links: number,
    readonly where: string,
  ) {
    super(
      `${where} holds ${links.toLocaleString('en-US')} symbolic links, more than the ${MAX_LINK_READS} gpu-justify follows: ` +
        'a link leading to a changed file would not be reviewed',
    );
    this.name = 'LinksUnfollowedError';
  }
}

/**
 * Starts listing a side's links at once, beside whatever else is asked; the function returned adds
 * to a set of changed paths those that read one of them through a link (see linksToChanged).
 */
export function linkedPaths(listing: { links(): Promise<TreeLinks> }, label: string): (changed: Set<string>) => Promise<void> {
  const links = listing.links();
  // Awaited when the changed paths are known; a failure is thrown there, not lost.
  links.catch(() => undefined);
  return async (changed) => {
    for (const path of await linksToChanged(await links, changed, `the tree of ${label}`)) changed.add(path);
  };
}

/**
 * The paths that read a changed file through a symbolic link, and are not changed paths already.
 *
 * A link's blob stays the same when the file it leads to changes, so GitHub's file list names only
 * that file; yet Terraform reading `variables.tf -> ../common/variables.tf` in its module, or
 * kustomize applying a linked queue file, reads the new text. A link (or a file under a linked
 * directory) whose way passes through a changed path — its target, a link of its chain, a file
 * below a linked directory — is a changed path too, read like any other: both its sides through
 * the link. Chains are followed as a checkout would, at most MAX_LINK_HOPS; a link leading out of
 * the tree, to nothing or round a loop leads to no changed file (reading it, were it changed
 * itself, names it as today).
 *
 * One side's links suffice, the head's: a link the PR did not change is at both sides with the same
 * text, and a link it changed, added or removed is in the file list already.
 */
export async function linksToChanged(
  tree: TreeLinks,
  changed: ReadonlySet<string>,
  where: string,
  /** Link blobs read at most; a local checkout, where each costs no call, reads all. */
  maxReads = MAX_LINK_READS,
): Promise<string[]> {
  if (tree.links.size === 0 || changed.size === 0) return [];
  const blobs = new Set(tree.links.values());
  if (blobs.size > maxReads) throw new LinksUnfollowedError(tree.links.size, where);
  const targets = new Map<string, Promise<string>>();
  const targetOf = (sha: string): Promise<string> => {
    let pending = targets.get(sha);
    if (!pending) {
      pending = tree.target(sha);
      targets.set(sha, pending);
    }
    return pending;
  };
  const found = new Set<string>();
  await Promise.all(
    [...tree.links.keys()].map(async (link) => {
      for (const path of await changedThrough(link, tree.links, changed, targetOf)) {
        if (!changed.has(path) && detectionReads(path)) found.add(path);
      }
    }),
  );
  return [...found].sort();
}

/** What reads a changed path through `link`: the link itself, or the changed files below it. */
async function changedThrough(
  link: string,
  links: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
  targetOf: (sha: string) => Promise<string>,
): Promise<string[]> {
  let at = link;
  // Whether `at` must be a directory (a target spelt `queues.yaml/`): then a changed file there is
  // read through no link, and only changed files below it are.
  let dirOnly = false;
  for (let hops = 0; ; hops++) {
    // The link standing at `at` or at one of its directories (a linked directory on the way).
    const via = enclosingLink(at, links);
    if (via === null) break;
    // Round a loop: it leads to no file.
    if (hops >= MAX_LINK_HOPS) return [];
    const target = await targetOf(links.get(via) ?? '');
    const next = linkTarget(via, target);
    if (next === null) return [];
    if (via === at) dirOnly ||= asksForDirectory(target);
    at = via === at ? next : `${next}${at.slice(via.length)}`;
    // A changed link on the way, or the file at its end.
    if (changed.has(at) && (!dirOnly || links.has(at))) return [link];
  }
  // A linked directory: each changed file below its target is read at the matching path below the link.
  const prefix = `${at}/`;
  return [...changed].filter((c) => c.startsWith(prefix)).map((c) => `${link}/${c.slice(prefix.length)}`);
}

function enclosingLink(path: string, links: ReadonlyMap<string, string>): string | null {
  if (links.has(path)) return path;
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    const dir = path.slice(0, slash);
    if (links.has(dir)) return dir;
  }
  return null;
}
