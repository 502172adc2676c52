import { repositoryName } from '../../domain/index.js';

/** A module source that names a folder of this very repository. */
export interface OwnSource {
  /** The module's folder, from the repository's root (`''` for the root). */
  dir: string;
  /** The `?ref=` it pins, if any: the review reads the pull request's tree, whatever the ref. */
  ref: string | null;
}

/**
 * Where a module source that names this repository by URL points: `github.com/acme/infra//modules/gpu?ref=v1`,
 * `git::https://github.com/acme/infra.git//modules/gpu`, `git@github.com:acme/infra.git//modules/gpu`,
 * `git::ssh://git@github.com/acme/infra.git` (the root). Null for any other source.
 */
export function ownSource(source: string, repositories: readonly string[]): OwnSource | null {
  if (repositories.length === 0) return null;
  const ref = /[?&]ref=([^&#]+)/.exec(source)?.[1] ?? null;
  const bare = source.replace(/^git::/, '').replace(/[?#].*$/, '');
  // The subfolder follows `//` after the repository (not the scheme's `://`).
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(bare)?.[0] ?? '';
  const rest = bare.slice(scheme.length);
  const cut = rest.indexOf('//');
  const repo = repositoryName(scheme + (cut < 0 ? rest : rest.slice(0, cut)));
  if (repo === null || !repositories.includes(repo)) return null;
  const dir = (cut < 0 ? '' : rest.slice(cut + 2))
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  if (dir.split('/').includes('..')) return null;
  return { dir, ref };
}
