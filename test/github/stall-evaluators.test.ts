import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { evaluatorBombs, type HostileFile } from '../helpers/hostile-files.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { ENFORCE_POLICY, INSTALLATION, pullRequest, useApp } from './app-harness.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Evaluators and renderers asked for more than a review may spend (hostile-files.ts
 * `evaluatorBombs`), through the real App over HTTP against the strict fake GitHub, all at once
 * with an ordinary pull request: each ends in enforce mode as `failure` with its file not followed
 * (by its evaluator's budget, or as what its reader does not render) or at its deadline, and the
 * ordinary one is judged beside them.
 */

const h = useApp();
const DEADLINE_SECONDS = 40;
const env = { ...process.env };

beforeEach(() => {
  process.env['GPU_JUSTIFY_REVIEW_WORKERS'] = '4';
  process.env['GPU_JUSTIFY_REVIEW_DEADLINE_SECONDS'] = String(DEADLINE_SECONDS);
});
afterEach(() => {
  process.env = { ...env };
});

function servePr(n: number, f: HostileFile | null, sharing?: FakeRepo) {
  const state = pullRequest({}, ENFORCE_POLICY);
  const repo = { owner: 'acme', repo: `infra-${n}` };
  const files = (side: 'base' | 'head') => (f ? { ...f.shared, [f.path]: f[side] } : {});
  const pr = {
    ...state,
    base: repo,
    number: n,
    baseSha: `${n}`.padStart(40, 'b'),
    headSha: `${n}`.padStart(40, 'c'),
    // A hostile pull request changes its file alone; the ordinary one raises the queue (6 → 12).
    baseFiles: { ...state.baseFiles, ...files('base') },
    headFiles: f ? { ...state.baseFiles, ...files('head') } : state.headFiles,
  };
  const fake = new FakeRepo(h.fake, pr, sharing ? { sharing } : {}).serve();
  const payload = pullRequestPayload({
    action: 'opened',
    installationId: INSTALLATION,
    number: n,
    baseSha: pr.baseSha,
    headSha: pr.headSha,
    repo,
  });
  return { repo: fake, deliver: () => h.app.deliver('pull_request', payload) };
}

const concluded = (repo: FakeRepo) => repo.checkRuns.at(-1)?.status === 'completed';

describe('evaluator and renderer bombs through the App', () => {
  it('each ends as failure naming its file or its deadline, and an ordinary review beside them is judged', async () => {
    const bombs = evaluatorBombs();
    const first = servePr(1, bombs[0] as HostileFile);
    const held = [first, ...bombs.slice(1).map((f, i) => servePr(i + 2, f, first.repo))];
    const ordinary = servePr(99, null, first.repo);

    for (const p of held) expect([200, 202]).toContain((await p.deliver()).status);
    expect([200, 202]).toContain((await ordinary.deliver()).status);
    const rounds = Math.ceil((held.length + 1) / 4);
    await eventually(() => [...held, ordinary].every((p) => concluded(p.repo)), {
      what: 'every review concluded',
      timeoutMs: (DEADLINE_SECONDS * rounds + 60) * 1000,
      state: () => held.map((p, i) => `${bombs[i]?.name}: ${p.repo.checkRuns.at(-1)?.status}`),
    });

    for (const [i, p] of held.entries()) {
      const bomb = bombs[i] as HostileFile;
      const check = p.repo.checkRuns.at(-1);
      expect(check?.conclusion, bomb.name).toBe('failure');
      const output = JSON.stringify(check?.output);
      if (check?.output.title === 'gpu-justify could not run') expect(output, bomb.name).toContain(`deadline of ${DEADLINE_SECONDS} s`);
      else expect(output, bomb.name).toMatch(/not followed|could not be read|not read/);
    }
    expect(ordinary.repo.checkRuns.at(-1)?.output.title).toMatch(/not justified/i);
  }, 600_000);
});
