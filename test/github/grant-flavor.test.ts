import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { NEWER_SHA, commentEvent, failThenOverride, pullRequest, stickyBody, reviewPush, useApp } from './app-harness.js';
import { QUEUE_FILE, clusterQueue } from './scenarios.js';

/**
 * A grant on a queue covers the GPUs its quota bought when it was given: through the real App over
 * signed webhooks, a later push that changes only the ResourceFlavor the queue names (another GPU
 * model under the same quota) lapses it, whether the flavor sits beside the queue or elsewhere in
 * the tree. A push that leaves the flavor alone keeps it.
 */

const h = useApp();
const OVERRIDE = '/gpu-justify override the quarterly eval needs it';
const POLICY = 'mode: enforce\noverrides:\n  minPermission: maintain\n';

const flavor = (accelerator: string) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: a100
spec:
  nodeLabels:
    cloud.google.com/gke-accelerator: ${accelerator}
`;

async function granted(flavorFile: string): Promise<FakeRepo> {
  const base = pullRequest({}, POLICY);
  const pr = {
    ...base,
    baseFiles: { ...base.baseFiles, [flavorFile]: flavor('nvidia-tesla-a100') },
    headFiles: { ...base.headFiles, [flavorFile]: flavor('nvidia-tesla-a100') },
  };
  const repo = new FakeRepo(h.fake, pr).serve();
  repo.roles['maintainer'] = 'maintain';
  await failThenOverride(h, repo, () => commentEvent(OVERRIDE, { login: 'maintainer', commentId: 901 }));
  return repo;
}

async function pushed(repo: FakeRepo, files: Record<string, string>) {
  repo.push(NEWER_SHA, files);
  return reviewPush(h, repo, { sha: NEWER_SHA, baseSha: repo.pr.baseSha, linked: true });
}

describe('a grant on a queue, then a push that changes only its flavor', () => {
  for (const flavorFile of ['clusters/prod/flavors.yaml', 'kueue/flavors/a100.yaml']) {
    it(`lapses when the flavor (${flavorFile}) swaps A100 for H100 under the same quota`, async () => {
      const repo = await granted(flavorFile);
      expect(repo.pr.headFiles[QUEUE_FILE]).toBe(clusterQueue(12));
      const run = await pushed(repo, { ...repo.pr.headFiles, [flavorFile]: flavor('nvidia-h100-80gb') });
      expect(run?.conclusion).toBe('failure');
      expect(stickyBody(repo)).not.toContain('gpu-justify:override');
    }, 90_000);
  }

  it('holds when the push leaves the flavor as it was', async () => {
    const repo = await granted('kueue/flavors/a100.yaml');
    const run = await pushed(repo, { ...repo.pr.headFiles, 'README.md': '# infra, edited\n' });
    expect(run?.conclusion).toBe('success');
    expect(stickyBody(repo)).toContain('gpu-justify:override');
  }, 90_000);
});
