import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

const h = useApp();

const ourComment = (repo: FakeRepo) => repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

describe('numbers are sane, through the App', () => {
  it.each(['1e400', 'Infinity', '-4', '9999999999', '.inf'])(
    'a quota of %s is an error at its line, never a verdict on it',
    async (value) => {
      const pr = pullRequest({}, ENFORCE_POLICY);
      pr.headFiles[QUEUE_FILE] = clusterQueue(value);
      const repo = new FakeRepo(h.fake, pr).serve();

      expect((await h.app.deliver('pull_request', prEvent())).status).toBe(200);

      const check = repo.checkRuns[0];
      expect(check?.status).toBe('completed');
      expect(check?.conclusion).not.toBe('success');
      const line =
        clusterQueue(value)
          .split('\n')
          .findIndex((l) => l.includes(`nominalQuota: ${value}`)) + 1;
      const shown = `${check?.output.title ?? ''}\n${check?.output.summary ?? ''}\n${check?.output.text ?? ''}\n${ourComment(repo)}`;
      expect(shown).toContain(`${QUEUE_FILE}:${line}`);
      expect(shown).not.toMatch(/[+-]?Infinity GPU|NaN GPU|9,999,999,999 GPU/);
      expect(shown).toMatch(/insufficient evidence|could not be read|not a real count/i);
    },
  );
});
