import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import { Probot, ProbotOctokit, Server } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appsIdle, closeApps, createGpuJustifyApp } from '../../src/github/app/app.js';
import { AppMetrics } from '../../src/github/app/metrics.js';
import { SnapshotSource, emptySnapshot } from '../../src/telemetry/snapshot.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { newPrivateKey, WEBHOOK_SECRET, WEBHOOKS_PATH } from '../helpers/app-server.js';
import { NUMBER, REPO_PATH, prEvent, pullRequest } from './app-harness.js';

// Each test stops its server; a pooled keep-alive socket must not outlive it into the next test.
const get = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), connection: 'close' } });

/** Probot's own HTTP server (what `npm start` runs), so extra routes such as /metrics are real. */
async function startServer(githubUrl: string, metrics: AppMetrics) {
  const server = new Server({
    Probot: Probot.defaults({
      appId: 12345,
      privateKey: newPrivateKey(),
      secret: WEBHOOK_SECRET,
      Octokit: ProbotOctokit.defaults((o: Record<string, unknown>) => ({
        ...o,
        baseUrl: githubUrl,
        retry: { enabled: false },
        throttle: { ...(o.throttle as object | undefined), enabled: false },
      })),
      logLevel: 'fatal',
    }),
    host: '127.0.0.1',
    port: 0,
    webhookPath: WEBHOOKS_PATH,
  });
  // An empty snapshot answers every query "not in snapshot": telemetry configured, no data.
  await server.load(
    createGpuJustifyApp({
      metrics,
      telemetry: () => ({ source: new SnapshotSource(emptySnapshot()), at: new Date('2026-11-01T00:00:00Z') }),
    }),
  );
  const http = await server.start();
  return { server, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

/** A signed delivery to the App's webhook route. */
async function deliver(url: string, payload: unknown): Promise<Response> {
  const body = JSON.stringify(payload);
  return get(`${url}${WEBHOOKS_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': await sign(WEBHOOK_SECRET, body),
    },
    body,
  });
}

describe('GET /metrics', () => {
  let fake: FakeGitHub;
  let running: Awaited<ReturnType<typeof startServer>>;

  beforeEach(async () => {
    fake = await FakeGitHub.start();
    running = await startServer(fake.url, new AppMetrics({ processMetrics: false }));
  });
  afterEach(async () => {
    await running.server.stop();
    await closeApps();
    await fake.close();
    expect(fake.errors).toEqual([]);
  });

  it('shows the reviews by verdict, their duration, GitHub calls and telemetry outcomes after a review', async () => {
    new FakeRepo(fake, pullRequest()).serve().withoutGraphql();
    const body = JSON.stringify(prEvent());
    const res = await get(`${running.url}${WEBHOOKS_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': await sign(WEBHOOK_SECRET, body),
      },
      body,
    });
    expect(res.status).toBe(200);
    await appsIdle();

    const metrics = await (await get(`${running.url}/metrics`)).text();
    expect(metrics).toContain('gpu_justify_reviews_total{verdict="not-justified"} 1');
    // The queue: one job waited and ran, none is left, none was tried again or failed.
    expect(metrics).toContain('gpu_justify_queue_wait_seconds_count 1');
    expect(metrics).toMatch(/^gpu_justify_queue_jobs\{state="waiting"\} 0$/m);
    expect(metrics).toMatch(/^gpu_justify_queue_jobs\{state="active"\} 0$/m);
    expect(metrics).toMatch(/^gpu_justify_worker_jobs_running 0$/m);
    expect(metrics).toContain('gpu_justify_queue_jobs_retried_total 0');
    expect(metrics).toContain('gpu_justify_queue_jobs_failed_total 0');
    expect(metrics).toContain('gpu_justify_queue_superseded_total 0');
    expect(metrics).toContain('gpu_justify_reruns_coalesced_total 0');
    expect(metrics).toContain('gpu_justify_redeliveries_skipped_total 0');
    expect(metrics).toContain('gpu_justify_review_duration_seconds_count 1');
    // The webhook's answer, stage by stage: each timed once, the handler's within the whole.
    const stage = (name: string, part: 'count' | 'sum') =>
      Number(new RegExp(`^gpu_justify_webhook_stage_seconds_${part}\\{stage="${name}"\\} ([0-9.e+-]+)$`, 'm').exec(metrics)?.[1]);
    for (const name of ['verify', 'record', 'enqueue', 'handler', 'webhook', 'finish']) expect(stage(name, 'count')).toBe(1);
    expect(stage('record', 'sum') + stage('enqueue', 'sum')).toBeLessThanOrEqual(stage('handler', 'sum'));
    expect(stage('verify', 'sum') + stage('handler', 'sum')).toBeLessThanOrEqual(stage('webhook', 'sum') + 1e-6);
    // Every request of the installation client is counted once, whatever its status (the
    // policy's 404s too), its token request included.
    const counted = [...metrics.matchAll(/^gpu_justify_github_requests_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(counted).toBe(fake.requests.length);
    expect(metrics).toMatch(/gpu_justify_github_requests_total\{method="GET",status="4xx"\} [1-9]/);
    expect(metrics).toMatch(/gpu_justify_telemetry_queries_total\{outcome="not-in-snapshot"\} [1-9]/);
  });

  it('exports the queue as Prometheus reads it: depth, wait, retried, failed and superseded, typed and explained', async () => {
    new FakeRepo(fake, pullRequest()).serve().withoutGraphql();
    const pull = `${REPO_PATH}/pulls/${NUMBER}`;
    // The first job: its first attempt meets a 502 (tried again), its second is held while two more
    // events arrive: both taken in by it, the latest kept to run once it ends (queue.ts).
    fake.fail('GET', pull, { status: 502, body: { message: 'Server Error' } }, 1);
    let release = (): void => undefined;
    const held = fake.hold('GET', pull, new Promise<void>((r) => (release = r)));
    expect((await deliver(running.url, prEvent())).status).toBe(200);
    await held.arrived;
    expect((await deliver(running.url, prEvent({ action: 'reopened' }))).status).toBe(200);
    expect((await deliver(running.url, prEvent({ action: 'reopened' }))).status).toBe(200);
    release();
    await appsIdle();
    // A job that fails for good: the pull request is gone.
    fake.fail('GET', pull, { status: 404, body: { message: 'Not Found' } }, 1);
    expect((await deliver(running.url, prEvent({ action: 'reopened' }))).status).toBe(200);
    await appsIdle();

    const text = await (await get(`${running.url}/metrics`)).text();
    const family = (name: string) => ({
      type: new RegExp(`^# TYPE ${name} (\\w+)$`, 'm').exec(text)?.[1],
      help: new RegExp(`^# HELP ${name} (.+)$`, 'm').exec(text)?.[1] ?? '',
    });
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}"=]/g, (c) => `\\${c}`)} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
    const expected: [string, string, RegExp][] = [
      ['gpu_justify_queue_jobs', 'gauge', /waiting.*active.*delayed.*failed/],
      ['gpu_justify_queue_wait_seconds', 'histogram', /queued/],
      ['gpu_justify_queue_jobs_retried_total', 'counter', /run again/],
      ['gpu_justify_queue_jobs_failed_total', 'counter', /without success/],
      ['gpu_justify_queue_superseded_total', 'counter', /taken in by its job/],
      ['gpu_justify_worker_jobs_running', 'gauge', /runs now/],
    ];
    for (const [name, type, help] of expected) {
      expect(family(name).type, name).toBe(type);
      expect(family(name).help, name).toMatch(help);
    }
    for (const state of ['waiting', 'active', 'delayed']) expect(value(`gpu_justify_queue_jobs{state="${state}"}`)).toBe(0);
    expect(value('gpu_justify_queue_jobs{state="failed"}')).toBe(1);
    expect(value('gpu_justify_queue_jobs_retried_total')).toBe(1);
    expect(value('gpu_justify_queue_jobs_failed_total')).toBe(1);
    expect(value('gpu_justify_queue_superseded_total')).toBe(2);
    // Three jobs started: the first, the one kept behind it, the one that failed.
    expect(value('gpu_justify_queue_wait_seconds_count')).toBe(3);
  });

  it('leaves the webhook route and Probot’s own ping alone', async () => {
    expect(await (await get(`${running.url}/ping`)).text()).toBe('PONG');
    expect((await get(`${running.url}/metrics`, { method: 'POST' })).status).not.toBe(200);
  });
});
