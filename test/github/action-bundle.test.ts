import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { pullRequestPayload } from '../helpers/payloads.js';
import { BASE_SHA, HEAD_SHA, NUMBER, pullRequest } from './app-harness.js';

/** The Action runs action/dist as committed: it must be the build of today's sources, and run alone. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(ROOT, 'action/dist');
const scratch = mkdtempSync(path.join(tmpdir(), 'gpu-justify-action-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else out[rel] = readFileSync(path.join(dir, rel)).toString('base64');
    }
  };
  walk('');
  return out;
}

describe('the Action bundle', () => {
  it('is the build of the committed sources (npm run build:action rebuilds it)', () => {
    const fresh = path.join(scratch, 'fresh');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-action.mjs'), '--out', fresh], { encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const built = tree(fresh);
    const committed = tree(DIST);
    expect(Object.keys(committed).sort()).toEqual(Object.keys(built).sort());
    const stale = Object.keys(built).filter((file) => built[file] !== committed[file]);
    expect(stale, 'action/dist is stale: run `npm run build:action` and commit it').toEqual([]);
  }, 120_000);

  describe('run as the runner runs it, with nothing installed beside it', () => {
    let fake: FakeGitHub;
    beforeEach(async () => {
      fake = await FakeGitHub.start();
    });
    afterEach(async () => {
      await fake.close();
      expect(fake.errors).toEqual([]);
    });

    it('reviews a pull request that reads Terraform and Bicep, and posts the comment and the check', async () => {
      const alone = path.join(scratch, 'alone');
      cpSync(DIST, alone, { recursive: true });
      const tf =
        'resource "aws_eks_node_group" "gpu" {\n  instance_types = ["p4d.24xlarge"]\n  scaling_config {\n    desired_size = 1\n    min_size = 1\n    max_size = MAX\n  }\n}\n';
      const bicep =
        "resource pool 'Microsoft.ContainerService/managedClusters/agentPools@2024-02-01' = {\n  name: 'gpu'\n  properties: {\n    vmSize: 'Standard_NC24ads_A100_v4'\n    count: COUNT\n  }\n}\n";
      // The workflow's token cannot see the organisation's .github: the repository carries its policy.
      const base = pullRequest({}, 'mode: advise\n');
      const repo = new FakeRepo(
        fake,
        pullRequest({
          baseFiles: { ...base.baseFiles, 'infra/eks.tf': tf.replace('MAX', '2'), 'infra/aks.bicep': bicep.replace('COUNT', '1') },
          headFiles: { ...base.headFiles, 'infra/eks.tf': tf.replace('MAX', '4'), 'infra/aks.bicep': bicep.replace('COUNT', '3') },
        }),
      ).serve();
      const eventPath = path.join(scratch, 'event.json');
      writeFileSync(
        eventPath,
        JSON.stringify(
          pullRequestPayload({ action: 'synchronize', installationId: 1, number: NUMBER, baseSha: BASE_SHA, headSha: HEAD_SHA }),
        ),
      );
      const child = spawn(process.execPath, [path.join(alone, 'index.mjs')], {
        cwd: scratch,
        env: {
          PATH: process.env.PATH,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_API_URL: fake.url,
          'INPUT_GITHUB-TOKEN': 'ghs_bundleTestToken000000000000000000000',
          'INPUT_PROMETHEUS-URL': '',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, stdout + stderr).toBe(0);
      expect(stdout).toMatch(/^gpu-justify: [a-z-]+, check [a-z_]+\.$/m);
      expect(repo.comments).toHaveLength(1);
      const body = repo.comments[0]?.body ?? '';
      expect(body).toContain(COMMENT_MARKER);
      // The WebAssembly parsers ran from the copied packages: both pools were read.
      expect(body).toContain('infra/eks.tf');
      expect(body).toContain('infra/aks.bicep');
      expect(repo.checkRuns).toEqual([expect.objectContaining({ status: 'completed' })]);
    }, 60_000);
  });
});
