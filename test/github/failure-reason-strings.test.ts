import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { clusterQueue } from './scenarios.js';
import { eventually } from '../helpers/eventually.js';

/**
 * A review that fails names what it failed on (a file's path in GitHub's refusal, the last file
 * read before a deadline): a string the pull request chose, landing in the check's markdown
 * summary. Through the real App over HTTP against the strict fake GitHub, a read refused for a
 * path holding a link, an image, HTML, a mention, a reference, a marker closer, a backtick and a
 * bidi control concludes the check with none of them acting: each is shown as it is written.
 */

const h = useApp();

/** Each hostile piece a git path may hold (no NUL, no `..`), and what must not appear raw. */
const PIECES: readonly { piece: string; acts: RegExp }[] = [
  { piece: '[docs](https://evil.example/x)', acts: /\[docs\]\(/ },
  { piece: '![i](https://evil.example/i.png)', acts: /!\[i\]\(/ },
  { piece: '<img src=x onerror=alert(1)>', acts: /<img/ },
  { piece: '<b>bold</b>', acts: /<b>/ },
  { piece: '@acme/gpu-admins', acts: /@acme/ },
  { piece: '#12', acts: /(?<![\\&])#12/ },
  { piece: 'acme/infra#34', acts: /infra#34/ },
  { piece: 'GH-56', acts: /GH-56/ },
  { piece: '--> <!-- gpu-justify', acts: /-->|<!--/ },
  { piece: 'a`b', acts: /a`b/ },
  { piece: 'https://evil.example', acts: /https:\/\/evil/ },
  { piece: '\u202E8 4\u202C', acts: /\u202E/ },
];

/** A path of every piece, in an order the seed turns, so no one arrangement is what passes. */
function hostilePath(seed: number): string {
  const order = PIECES.map((_, i) => (i + seed) % PIECES.length);
  return `clusters/${order.map((i) => PIECES[i]?.piece ?? '').join(' ')}/queues.yaml`;
}

describe('a failed review quoting a path the PR named', () => {
  it.each([0, 5])('shows every piece as written and none acts (arrangement %i)', async (seed) => {
    const file = hostilePath(seed);
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, {
      ...state,
      baseFiles: { ...state.baseFiles, [file]: clusterQueue(2) },
      headFiles: { ...state.headFiles, [file]: clusterQueue(8) },
    }).serve();
    // Without GraphQL the App reads each file by its path, and GitHub's refusal names that path.
    repo.graphql = false;
    h.fake.fail('GET', /\/contents\/clusters\/.*evil/, { status: 500, body: { message: 'Server Error' } }, 50);

    await h.app.deliver('pull_request', prEvent());
    await eventually(() => repo.checkRuns.at(-1)?.status === 'completed', {
      what: 'the check concluded',
      timeoutMs: 60_000,
      state: () => repo.checkRuns,
    });

    const check = repo.checkRuns.at(-1);
    expect(check?.conclusion).toBe('failure');
    const summary = check?.output.summary ?? '';
    expect(summary).toMatch(/could not run: GitHub API refused: 500 on GET/);
    for (const { piece, acts } of PIECES) expect(summary, piece).not.toMatch(acts);
    // The reader still sees the name: each piece escaped, bidi controls written out.
    expect(summary).toContain('\\[docs\\](https:&#8203;//evil.example/x)');
    expect(summary).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(summary).toContain('@&#8203;acme/gpu-admins');
    expect(summary).toContain('a\\`b');
    expect(summary).toContain('⟨U+202E⟩8 4⟨U+202C⟩');
    // Our own code spans still pair: an even number of unescaped backticks.
    expect((summary.match(/(?<!\\)`/g) ?? []).length % 2).toBe(0);
  });
});
