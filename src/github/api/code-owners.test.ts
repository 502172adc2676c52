import { describe, expect, it } from 'vitest';
import type { TreeReader } from '../../domain/files.js';
import { ownersOf, readCodeOwners } from './code-owners.js';

/** GitHub's documented CODEOWNERS examples, and where GitHub looks for the file. */

function tree(files: Record<string, string>): TreeReader {
  return { label: 'base', read: (path) => Promise.resolve(files[path] ?? null) };
}

const EXAMPLE = `# Each line is a file pattern followed by one or more owners.
*       @global-owner1 @global-owner2
*.js    @js-owner #This is an inline comment.
*.go docs@example.com
*.txt @octo-org/octocats
/build/logs/ @doctocat
docs/*  docs@example.com
apps/ @octocat
/docs/ @doctocat
/scripts/ @doctocat @octocat
**/logs @octocat
/apps/ @octocat
/apps/github
/gpu-workloads.yaml @ml-lead
infra/**/catalog.yaml @acme/ml
`;

describe('CODEOWNERS', () => {
  it.each([
    ['README.md', ['@global-owner1', '@global-owner2']],
    ['src/index.js', ['@js-owner']],
    ['notes.txt', ['@octo-org/octocats']],
    // `**/logs` comes after `/build/logs/`: it wins.
    ['build/logs/out.log', ['@octocat']],
    ['deep/build/logs/out.log', ['@octocat']],
    ['docs/getting-started.md', ['@doctocat']],
    ['scripts/ci.sh', ['@doctocat', '@octocat']],
    ['a/b/logs/x', ['@octocat']],
    ['apps/web/main.ts', ['@octocat']],
    ['apps/github/x.ts', []],
    ['gpu-workloads.yaml', ['@ml-lead']],
    ['sub/gpu-workloads.yaml', ['@global-owner1', '@global-owner2']],
    ['infra/catalog.yaml', ['@acme/ml']],
    ['infra/prod/eu/catalog.yaml', ['@acme/ml']],
  ])('%s is owned by %j: the last matching line wins', async (path, owners) => {
    const read = await readCodeOwners(tree({ '.github/CODEOWNERS': EXAMPLE }));
    expect(read && ownersOf(read, path)).toEqual(owners);
  });

  it('is read where GitHub looks, in its order', async () => {
    const files = { 'docs/CODEOWNERS': '* @docs\n', CODEOWNERS: '* @root\n', '.github/CODEOWNERS': '* @github\n' };
    expect((await readCodeOwners(tree(files)))?.file).toBe('.github/CODEOWNERS');
    expect((await readCodeOwners(tree({ 'docs/CODEOWNERS': '* @docs\n', CODEOWNERS: '* @root\n' })))?.file).toBe('CODEOWNERS');
    expect((await readCodeOwners(tree({ 'docs/CODEOWNERS': '* @docs\n' })))?.file).toBe('docs/CODEOWNERS');
    expect(await readCodeOwners(tree({}))).toBeNull();
  });

  it('ignores what GitHub does not accept: negation and character ranges', async () => {
    const read = await readCodeOwners(tree({ CODEOWNERS: '* @all\n!gpu-workloads.yaml @nobody\n[g]pu-workloads.yaml @nobody\n' }));
    expect(read && ownersOf(read, 'gpu-workloads.yaml')).toEqual(['@all']);
  });
});
