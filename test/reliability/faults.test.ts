import { request as httpRequest } from 'node:http';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { COMMENT_MARKER } from '../../src/report/comment.js';
import type { TelemetryProvider } from '../../src/telemetry/from-env.js';
import { PrometheusSource } from '../../src/telemetry/prometheus-source.js';
import { prometheusConfig } from '../../src/telemetry/prometheus/config.js';
import { AppServer } from '../helpers/app-server.js';
import type { AppServerOptions } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { startSimulatedPrometheus } from '../helpers/prometheus/index.js';
import type { SimulatedPrometheus } from '../helpers/prometheus/index.js';
import { REPO_PATH, prEvent, pullRequest } from '../github/app-harness.js';
import { startServer } from '../telemetry/local-server.js';
import type { LocalServer } from '../telemetry/local-server.js';
import { MEASURED_CATALOG } from '../github/scenarios.js';

/**
 * Faults around a review: Prometheus dying, stalling or answering nonsense; GitHub answering 502,
 * a secondary rate limit or 422. Whatever happens, the check run concludes, the App answers the
 * webhook, and nothing is left as an unhandled rejection.
 */

const COMMENTS = `${REPO_PATH}/issues/7/comments`;

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
let prom: SimulatedPrometheus;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  prom = await startSimulatedPrometheus();
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll was skipped or failed.
  await prom?.stop();
});

/** Telemetry as the App builds it from PROMETHEUS_URL, with a short timeout so a stall is quick to see. */
function telemetryAt(url: string, at: Date): TelemetryProvider {
  const source = new PrometheusSource(prometheusConfig({ PROMETHEUS_URL: url }, { timeoutMs: 1_500, retries: 1, backoffMs: 50 }));
  return () => ({ source, at });
}

interface Run {
  fake: FakeGitHub;
  repo: FakeRepo;
  status: number;
}

/** One review of the GPU pull request through the real webhook server, then the invariants every fault shares. */
async function review(
  telemetry: TelemetryProvider | undefined,
  setup: (fake: FakeGitHub) => void = () => undefined,
  options: AppServerOptions = {},
): Promise<Run> {
  const fake = await FakeGitHub.start();
  const repo = new FakeRepo(
    fake,
    pullRequest({
      baseFiles: { ...pullRequest().baseFiles, 'gpu-workloads.yaml': MEASURED_CATALOG },
      headFiles: { ...pullRequest().headFiles, 'gpu-workloads.yaml': MEASURED_CATALOG },
    }),
  ).serve();
  setup(fake);
  const app = await AppServer.start(createGpuJustifyApp(telemetry ? { telemetry } : {}), fake.url, options);
  try {
    const res = await app.deliver('pull_request', prEvent());
    expect(fake.errors).toEqual([]);
    expect(repo.checkRuns.length).toBeGreaterThan(0);
    for (const run of repo.checkRuns) expect(run.status, JSON.stringify(run.output.title)).toBe('completed');
    expect(unhandled).toEqual([]);
    return { fake, repo, status: res.status };
  } finally {
    await app.close();
    await fake.close();
  }
}

const summaryOf = (r: Run) => `${r.repo.checkRuns.at(-1)?.output.title}\n${r.repo.checkRuns.at(-1)?.output.summary}`;
const commentOf = (r: Run) => r.repo.comments.find((c) => c.body.includes(COMMENT_MARKER))?.body ?? '';

/** A Prometheus stand-in answering every request the same scripted way. */
async function badPrometheus(answer: (res: ServerResponse) => void): Promise<LocalServer> {
  return startServer((_req, res) => answer(res));
}

describe('Prometheus faults', () => {
  it('with Prometheus healthy, the review uses its measurements (the baseline the faults are compared with)', async () => {
    const run = await review(telemetryAt(prom.url, new Date(prom.window.end * 1000)));
    expect(run.status).toBe(200);
    expect(commentOf(run)).toContain('prometheus');
  });

  it('killed mid-review: the review finishes on the evidence it has and says what is missing', async () => {
    const victim = await startSimulatedPrometheus(prom.window);
    let forwarded = 0;
    // A proxy that kills the real Prometheus once the review's queries have started arriving.
    const proxy = await startServer((req, res) => {
      forwarded++;
      if (forwarded === 3) void victim.stop();
      const target = new URL(victim.url);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: `${req.path}?${req.params.toString()}`, method: 'GET' },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end();
    });
    try {
      const run = await review(telemetryAt(proxy.url, new Date(prom.window.end * 1000)));
      expect(run.status).toBe(200);
      expect(forwarded).toBeGreaterThan(3);
      expect(run.repo.checkRuns.at(-1)?.conclusion).not.toBeNull();
      expect(commentOf(run)).toMatch(/unreachable|missing|could not|no data|not measured/i);
    } finally {
      await proxy.close();
      await victim.stop();
    }
  });

  it('slow (5 s per answer): queries time out, the review concludes without them', async () => {
    const slow = await badPrometheus((res) => {
      const timer = setTimeout(
        () =>
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]}}'),
        5_000,
      );
      res.on('close', () => clearTimeout(timer));
    });
    try {
      const started = Date.now();
      const run = await review(telemetryAt(slow.url, new Date(prom.window.end * 1000)));
      expect(run.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(`${commentOf(run)}\n${summaryOf(run)}`).toMatch(/did not answer within/i);
    } finally {
      await slow.close();
    }
  });

  for (const [name, answer] of [
    [
      'answering 500',
      (res: ServerResponse) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error","error":"internal"}'),
    ],
    ['answering garbage', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>\u0000{"status":')],
    [
      'answering JSON of the wrong shape',
      (res: ServerResponse) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[["x","NaN"],[null]]}]}}'),
    ],
  ] as const) {
    it(`${name}: the review concludes and names the missing evidence`, async () => {
      const bad = await badPrometheus(answer);
      try {
        const run = await review(telemetryAt(bad.url, new Date(prom.window.end * 1000)));
        expect(run.status).toBe(200);
        expect(bad.seen.length).toBeGreaterThan(0);
        expect(run.repo.checkRuns.at(-1)?.conclusion).not.toBeNull();
        expect(commentOf(run).length).toBeGreaterThan(0);
      } finally {
        await bad.close();
      }
    });
  }
});

describe('GitHub faults', () => {
  it('502 on reading files is retried by the production client and the review completes', async () => {
    const run = await review(undefined, (fake) => fake.fail('GET', /\/contents\//, { status: 502, body: { message: 'Server Error' } }, 2), {
      production: true,
    });
    expect(run.repo.checkRuns.at(-1)?.output.title).not.toContain('could not run');
    expect(commentOf(run)).toContain(COMMENT_MARKER);
  });

  it('403 secondary rate limit with retry-after past the budget on the comment: not hammered, the check says why', async () => {
    // A wait longer than the budget is not taken: the write gives up at once.
    process.env['GPU_JUSTIFY_WRITE_BUDGET_SECONDS'] = '10';
    const run = await review(
      undefined,
      (fake) =>
        fake.fail(
          'POST',
          COMMENTS,
          { status: 403, headers: { 'retry-after': '30' }, body: { message: 'You have exceeded a secondary rate limit.' } },
          5,
        ),
      { production: true },
    ).finally(() => delete process.env['GPU_JUSTIFY_WRITE_BUDGET_SECONDS']);
    expect(run.fake.calls('POST', COMMENTS)).toHaveLength(1);
    // The conclusion the review reached stays; the check adds why the comment is missing.
    expect(run.repo.checkRuns.at(-1)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(summaryOf(run)).toContain('403');
  });

  it('422 body too long on the comment: the check concludes and says the comment was refused', async () => {
    const run = await review(undefined, (fake) =>
      fake.fail(
        'POST',
        COMMENTS,
        {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [
              { resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' },
            ],
          },
        },
        5,
      ),
    );
    expect(run.repo.checkRuns.at(-1)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(summaryOf(run)).toContain(`422 on POST ${COMMENTS}`);
  });

  it('502 on ten check-run updates in a row: the delivery answered at once, the job tried again until the check concludes, nothing left unhandled', async () => {
    const fake = await FakeGitHub.start();
    const repo = new FakeRepo(fake, pullRequest()).serve();
    fake.fail('PATCH', /\/check-runs\//, { status: 502, body: { message: 'Server Error' } }, 10);
    const app = await AppServer.start(createGpuJustifyApp({}), fake.url);
    try {
      const res = await app.deliver('pull_request', prEvent());
      // Answered once queued; the job's later attempts adopt the run the first one created.
      expect(res.status).toBe(200);
      expect(repo.checkRuns).toHaveLength(1);
      expect(repo.checkRuns[0]?.status).toBe('completed');
      expect(unhandled).toEqual([]);
    } finally {
      await app.close();
      await fake.close();
    }
  });
});
