import { repointKustomizations } from './kustomize-references.js';
import type { Rewrite } from './rewrite.js';
import { changedFiles } from './variant-tree.js';
import type { Sides, VariantTree } from './variant-tree.js';

/*
 * The changed files under other names, or as what is not a file: renamed (at both sides, or by
 * the pull request), padded past the size limit, replaced by a submodule or a symbolic link.
 */

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A new name in the same directory that every format reads as it read the old one. */
function renamed(path: string): string {
  const name = baseName(path);
  // Terraform's and Kubernetes' names: the extension is what a reader goes by.
  const m = /^(.*?)((?:\.tf\.json|\.tfvars\.json|\.tfvars|\.tf|\.ya?ml|\.json|\.bicepparam|\.bicep))$/.exec(name);
  if (!m) return '';
  // A kustomization, a chart's files and Terragrunt's are found by their names: those keep them.
  if (/^(kustomization|Chart|values|terragrunt|terraform)$/i.test(m[1] ?? '')) return '';
  return `${dirOf(path) === '' ? '' : `${dirOf(path)}/`}renamed-${m[1]}${m[2] === '.yaml' ? '.yml' : m[2]}`;
}

function renameIn(tree: VariantTree, from: string, to: string): VariantTree {
  const files = { ...tree.files };
  const text = files[from];
  delete files[from];
  if (text !== undefined) files[to] = text;
  return repointKustomizations({ files, special: { ...tree.special } }, from, [to]);
}

/** The names of the changed files a rename keeps the meaning of, or null when there is none. */
function renamable(sides: Sides): [string, string][] | null {
  const pairs = changedFiles(sides)
    .map((p): [string, string] => [p, renamed(p)])
    .filter(([, to]) => to !== '');
  return pairs.length === 0 ? null : pairs;
}

/** The changed files under other names, at both sides. */
export const renameBoth: Rewrite = {
  id: 'rename',
  what: 'the changed files under other names',
  apply: (sides) => {
    const pairs = renamable(sides);
    if (pairs === null) return null;
    let { base, head } = sides;
    for (const [from, to] of pairs) {
      base = renameIn(base, from, to);
      head = renameIn(head, from, to);
    }
    return { base, head };
  },
};

/** The changed files renamed by the pull request itself (GitHub's `renamed`, with the old name). */
export const renameInPr: Rewrite = {
  id: 'rename-in-pr',
  what: 'the changed files renamed by the pull request',
  apply: (sides) => {
    const pairs = renamable(sides);
    if (pairs === null) return null;
    let head = sides.head;
    for (const [from, to] of pairs) head = renameIn(head, from, to);
    return { base: sides.base, head };
  },
};

/** Comment lines in every format that takes `#` comments, past the 1 MiB a review reads. */
const PADDING = `# ${'-'.repeat(78)}\n`.repeat(13_500);

/** The changed files padded past the size limit at head: unread as a whole, each is not followed. */
export const padOverLimit: Rewrite = {
  id: 'pad-over-limit',
  what: 'the changed files padded past the 1 MiB limit at head',
  expect: 'not-followed',
  apply: (sides) => {
    const paths = changedFiles(sides).filter((p) => sides.head.files[p] !== undefined && !p.endsWith('.json'));
    if (paths.length === 0) return null;
    const files = { ...sides.head.files };
    for (const p of paths) files[p] = `${files[p] ?? ''}\n${PADDING}`;
    return { base: sides.base, head: { files, special: { ...sides.head.special } } };
  },
};

/** The changed files, at head, each replaced by something that is no file of the tree. */
function replaceAtHead(
  sides: Sides,
  by: (path: string) => VariantTree['special'][string],
  keep?: (path: string, text: string) => Record<string, string>,
): Sides | null {
  const paths = changedFiles(sides).filter((p) => sides.head.files[p] !== undefined);
  if (paths.length === 0) return null;
  const files = { ...sides.head.files };
  const special = { ...sides.head.special };
  for (const p of paths) {
    const text = files[p] ?? '';
    delete files[p];
    special[p] = by(p);
    Object.assign(files, keep?.(p, text) ?? {});
  }
  return { base: sides.base, head: { files, special } };
}

export const replaceBySubmodule: Rewrite = {
  id: 'submodule',
  what: 'the changed files, at head, submodules',
  expect: 'not-followed',
  apply: (sides) => replaceAtHead(sides, () => ({ submodule: 'c0ffee'.padEnd(40, '0') })),
};

/** Moved to a name no reader takes, a link at the old name: what kustomize or Argo CD applies is the same. */
export const replaceByLinkInside: Rewrite = {
  id: 'symlink-inside',
  what: 'the changed files, at head, links to their text moved within the tree',
  apply: (sides) =>
    replaceAtHead(
      sides,
      (p) => ({ link: `${'../'.repeat(p.split('/').length - 1)}gj-moved/${p}.src` }),
      (p, text) => ({ [`gj-moved/${p}.src`]: text }),
    ),
};

export const replaceByLinkOutside: Rewrite = {
  id: 'symlink-outside',
  what: 'the changed files, at head, links leading out of the tree',
  expect: 'not-followed',
  apply: (sides) => replaceAtHead(sides, (p) => ({ link: `/srv/elsewhere/${baseName(p)}` })),
};
