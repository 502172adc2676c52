import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/workloads/catalog.js';
import { runCli } from './run-cli.js';

/** Real GKE sample manifests: a fine-tuning Job and two servers on one Kueue queue (6 GPUs). */
const SAMPLES = fileURLToPath(new URL('../workloads/fixtures/real/gke-samples/mix-train-and-inference', import.meta.url));

const CRONJOB = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-eval
  namespace: llm
spec:
  schedule: "30 1 * * 1-5"
  timeZone: America/New_York
  jobTemplate:
    metadata:
      labels:
        kueue.x-k8s.io/queue-name: lq
    spec:
      parallelism: 2
      activeDeadlineSeconds: 5400
      template:
        spec:
          containers:
            - name: eval
              resources:
                limits:
                  nvidia.com/gpu: 1
`;

describe('gpu-justify init', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gpu-justify-init-'));
    cpSync(SAMPLES, path.join(dir, 'repo/workloads'), { recursive: true });
    writeFileSync(path.join(dir, 'repo/workloads/nightly-eval.yaml'), CRONJOB);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('drafts a catalog the review accepts, every value with its origin, what only the team knows marked', async () => {
    const { code, stdout } = await runCli('init', '--dir', path.join(dir, 'repo'));
    expect(code).toBe(0);
    const catalog = parseCatalog('gpu-workloads.yaml', stdout);
    expect(catalog.unreadable).toBeNull();
    expect(catalog.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // The servers are complete; the jobs wait for their runtimes and deadlines.
    expect(catalog.workloads.map((w) => [w.name, w.type, w.queue, w.type === 'inference' ? w.gpusPerReplica * w.replicas : null])).toEqual([
      ['tgi-gemma-deployment', 'inference', 'cluster-queue', 2],
      ['vllm-gemma-deployment', 'inference', 'cluster-queue', 2],
    ]);
    expect(catalog.rejected.map((r) => [r.name, r.queue])).toEqual([
      ['finetune-gemma-l4', 'cluster-queue'],
      ['nightly-eval', 'cluster-queue'],
    ]);
    // The CronJob: 2 pods × 1 GPU, 01:30 in New York is 06:30 UTC in December, weekdays.
    const entry = stdout.slice(stdout.indexOf('- name: nightly-eval'));
    expect(entry).toMatch(/gpusPerJob: 2 +# 2 job pods × 1 nvidia\.com\/gpu \(workloads\/nightly-eval\.yaml:14\)/);
    expect(entry).toMatch(/runtime: unknown +# TO CONFIRM: how long one run takes; activeDeadlineSeconds stops it after 90 min/);
    expect(entry).toMatch(/jobsPerDay: 1 /);
    expect(entry).toMatch(/days: \[mon, tue, wed, thu, fri\]/);
    expect(entry).toMatch(
      /earliestStart: "0[56]:30" +# schedule "30 1 \* \* 1-5" \(workloads\/nightly-eval\.yaml:7\), in America\/New_York/,
    );
    expect(entry).toMatch(/deadline: unknown +# TO CONFIRM/);
    expect(entry).toMatch(
      /queue: cluster-queue +# queue-name lq \(workloads\/nightly-eval\.yaml:12\) → LocalQueue → ClusterQueue \(workloads\/local-queue\.yaml:22\)/,
    );
  });

  it('a review of a PR that raises the queue, with the draft as its catalog, asks for what the draft left unknown', async () => {
    const base = path.join(dir, 'repo');
    const head = path.join(dir, 'head');
    cpSync(base, head, { recursive: true });
    const queue = path.join(head, 'workloads/cluster-queue.yaml');
    writeFileSync(queue, readFileSync(queue, 'utf8').replace('nominalQuota: 6', 'nominalQuota: 12'));
    const draft = path.join(dir, 'gpu-workloads.yaml');
    expect((await runCli('init', '--dir', base, '--out', draft)).code).toBe(0);

    const { code, stdout } = await runCli('review', '--base', base, '--head', head, '--catalog', draft, '--format', 'json');
    expect(code).toBe(0);
    const review = JSON.parse(stdout) as { verdict: string; gpusRequested: number; missingEvidence: { what: string; how: string }[] };
    expect(review.gpusRequested).toBe(6);
    expect(review.verdict).toBe('insufficient-evidence');
    const asked = review.missingEvidence.map((m) => m.how).join('\n');
    expect(asked).toMatch(/runtime: "unknown": write how long one run takes/);

    // Without any catalog, the review says how to draft one.
    const bare = JSON.parse((await runCli('review', '--base', base, '--head', head, '--format', 'json')).stdout) as typeof review;
    expect(bare.verdict).toBe('insufficient-evidence');
    expect(bare.missingEvidence.map((m) => m.how).join('\n')).toMatch(/`gpu-justify init` in a checkout drafts it/);
  });

  it('keeps an existing file unless --force', async () => {
    const target = path.join(dir, 'gpu-workloads.yaml');
    writeFileSync(target, 'workloads: []\n');
    const refused = await runCli('init', '--dir', path.join(dir, 'repo'), '--out', target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/exists; pass --force/);
    expect(readFileSync(target, 'utf8')).toBe('workloads: []\n');
    expect((await runCli('init', '--dir', path.join(dir, 'repo'), '--out', target, '--force')).code).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^# Draft workload catalog/);
  });

  it('a repository without GPU workloads gets an empty, valid draft', async () => {
    const empty = path.join(dir, 'empty');
    cpSync(path.join(SAMPLES, 'local-queue.yaml'), path.join(empty, 'local-queue.yaml'));
    const { code, stdout } = await runCli('init', '--dir', empty);
    expect(code).toBe(0);
    expect(stdout).toMatch(/No GPU workload was found/);
    expect(parseCatalog('gpu-workloads.yaml', stdout).workloads).toEqual([]);
  });
});
