import { asksForDirectory, linkTarget } from '../../src/domain/files.js';
import type { FakeRequest, FakeResponse } from './fake-github.js';
import { directoryEntries, gitBlobSha, specialOf } from './fake-repo-trees.js';

/** The contents API leaves `content` empty above this size. */
export const CONTENTS_LIMIT = 1024 * 1024;

/** GitHub's answer to a path it does not hold. */
export function notFound(): FakeResponse {
  return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
}

/**
 * The contents API: a file's object (base64 up to 1 MB, `encoding: none` and empty content past
 * it), a directory's entries (a submodule among them typed `file`, as GitHub still does), and
 * for a path that is itself a link or a submodule what GitHub gives: a link to a file of the
 * repository answers with that file, any other link with the link itself (`type: symlink`,
 * its `target`), a submodule with `type: submodule`. Nothing is served inside a submodule or
 * through a linked directory.
 */
/** `tree`: the files at the asked ref; `remember` keeps a served file's blob by its key. */
export function contentsAnswer(
  req: FakeRequest,
  tree: Record<string, string> | undefined,
  remember: (key: string, text: string) => void,
): FakeResponse {
  const { owner = '', repo = '', path: asked = '' } = req.params;
  if (tree === undefined) return notFound();
  const special = specialOf(tree);
  let path = asked;
  const entry = special[path];
  const base = `https://api.github.com/repos/${owner}/${repo}`;
  if (entry && 'submodule' in entry) {
    return {
      body: {
        type: 'submodule',
        submodule_git_url: entry.url,
        name: path.split('/').pop(),
        path,
        sha: entry.submodule,
        size: 0,
        ...urls(base, owner, repo, path, `git/trees/${entry.submodule}`, false),
      },
    };
  }
  if (entry && 'link' in entry) {
    const target = linkTarget(path, entry.link);
    // GitHub answers with the file a link leads to; one spelt `file/` leads to no file.
    if (target === null || tree[target] === undefined || asksForDirectory(entry.link)) {
      const sha = gitBlobSha(Buffer.from(entry.link, 'utf8'));
      return {
        body: {
          type: 'symlink',
          target: entry.link,
          name: path.split('/').pop(),
          path,
          sha,
          size: Buffer.byteLength(entry.link),
          ...urls(base, owner, repo, path, `git/blobs/${sha}`),
        },
      };
    }
    path = target;
  }
  if (Object.keys(special).some((p) => path.startsWith(`${p}/`))) return notFound();
  const text = tree[path];
  if (text === undefined) {
    const listed = directoryEntries(tree, path);
    if (listed === null || path === '') return notFound();
    return {
      body: listed.map((e) => ({
        type: e.type === 'tree' ? 'dir' : 'file',
        name: e.name,
        path: `${path}/${e.name}`,
        sha: e.sha,
        size: e.size ?? 0,
        ...urls(base, owner, repo, `${path}/${e.name}`, `git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.sha}`, e.type === 'blob'),
      })),
    };
  }
  const bytes = Buffer.from(text, 'utf8');
  const sha = gitBlobSha(bytes);
  remember(`${owner}/${repo}/${sha}`, text);
  const large = bytes.length > CONTENTS_LIMIT;
  return {
    body: {
      type: 'file',
      name: path.split('/').pop(),
      path,
      sha,
      size: bytes.length,
      encoding: large ? 'none' : 'base64',
      // GitHub wraps base64 at 60 characters.
      content: large ? '' : (bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n'),
      ...urls(base, owner, repo, path, `git/blobs/${sha}`),
    },
  };
}

/** The URLs a contents answer carries for an entry; a submodule has no web page or download. */
function urls(api: string, owner: string, repo: string, path: string, git: string, downloadable = true): Record<string, unknown> {
  const html = downloadable ? `https://github.com/${owner}/${repo}/blob/HEAD/${path}` : null;
  return {
    url: `${api}/contents/${path}`,
    git_url: `${api}/${git}`,
    html_url: html,
    download_url: downloadable ? `https://raw.githubusercontent.com/${owner}/${repo}/HEAD/${path}` : null,
    _links: { self: `${api}/contents/${path}`, git: `${api}/${git}`, html },
  };
}
