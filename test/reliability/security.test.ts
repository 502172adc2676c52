import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { POLICY_FILE, prEvent, pullRequest } from '../github/app-harness.js';
import { CATALOG, QUEUE_FILE, clusterQueue } from '../github/scenarios.js';
import { startServer } from '../telemetry/local-server.js';
import type { LocalServer } from '../telemetry/local-server.js';

/**
 * No repository file makes the App fetch anything but GitHub, and no credential reaches GitHub, a
 * log line or the CLI's output. PromQL injection through label values is proven against a real
 * Prometheus in test/telemetry/prometheus-real.test.ts ("keeps a hostile label value inside its matcher").
 */

const BEARER = 'prom-bearer-7f3a9c1e55d2';
const BASIC = 'grafana-reader:s3cr3t-basic-pw-41';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function trap(): Promise<LocalServer> {
  const server = await startServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]}}'),
  );
  closers.push(() => server.close());
  return server;
}

function logSink() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, log: pino({ level: 'trace' }, sink) };
}

describe('no SSRF from repository files', () => {
  it('a policy naming a URL as its telemetry, an _extends URL and catalog URLs are refused; only GitHub is asked', async () => {
    const elsewhere = await trap();
    const operator = await trap();
    const fake = await FakeGitHub.start();
    closers.push(() => fake.close());
    const hostile = `${elsewhere.url}/api/v1/query`;
    const policy = `telemetry: ${hostile}\n_extends: ${elsewhere.url}/policy.yml\ncatalog: ${elsewhere.url}/catalog.yaml\n`;
    const catalog = `${CATALOG}    loadTest: ${elsewhere.url}/loadtest.json\n    outcomes: {verified: 'sum(up{job="${elsewhere.url}"})'}\n`;
    const repo = new FakeRepo(
      fake,
      pullRequest({
        baseFiles: { [QUEUE_FILE]: clusterQueue(6), 'gpu-workloads.yaml': catalog, [POLICY_FILE]: policy },
        headFiles: { [QUEUE_FILE]: clusterQueue(12), 'gpu-workloads.yaml': catalog, [POLICY_FILE]: policy },
      }),
    ).serve();
    const app = await AppServer.start(createGpuJustifyApp({ telemetry: telemetryFromEnv({ PROMETHEUS_URL: operator.url }) }), fake.url);
    closers.push(() => app.close());

    const res = await app.deliver('pull_request', prEvent());

    expect(res.status).toBe(200);
    expect(elsewhere.seen).toEqual([]);
    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    const shown = `${check?.output.summary}\n${check?.output.text ?? ''}\n${JSON.stringify(check?.output.annotations)}`;
    expect(shown).toMatch(/not a URL/);
    // Every request the App made went to GitHub's API (the fake) or the operator's Prometheus.
    for (const r of fake.requests)
      expect(
        r.path.startsWith('/repos/') ||
          r.path === '/app' ||
          r.path.startsWith('/app/') ||
          r.path.startsWith('/orgs/') ||
          r.path === '/graphql',
        r.path,
      ).toBe(true);
  });
});

describe('secrets', () => {
  it('Prometheus credentials, the App key and the webhook secret reach no GitHub request and no log line, even when Prometheus echoes them', async () => {
    // A hostile or broken upstream that echoes the Authorization header back in its error.
    const echo = await startServer((req, res) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'error', error: `denied for ${String(req.headers.authorization)}` })),
    );
    closers.push(() => echo.close());
    const privateKey = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    const fake = await FakeGitHub.start();
    closers.push(() => fake.close());
    const repo = new FakeRepo(fake, pullRequest()).serve();
    const { lines, log } = logSink();
    for (const env of [
      { PROMETHEUS_URL: echo.url, PROMETHEUS_BEARER_TOKEN: BEARER },
      { PROMETHEUS_URL: echo.url, PROMETHEUS_BASIC_AUTH: BASIC },
    ]) {
      const app = await AppServer.start(createGpuJustifyApp({ telemetry: telemetryFromEnv(env) }), fake.url, {
        log,
        privateKey,
        production: true,
      });
      await app.deliver('pull_request', prEvent({ action: 'synchronize' }));
      await app.close();
    }
    expect(echo.seen.length).toBeGreaterThan(0);
    expect(echo.seen.some((r) => r.headers.authorization === `Bearer ${BEARER}`)).toBe(true);
    expect(repo.checkRuns.every((r) => r.status === 'completed')).toBe(true);

    const keyLines = privateKey
      .split('\n')
      .filter((l) => !l.startsWith('-----') && l.length > 20)
      .slice(0, 3);
    const secrets = [BEARER, BASIC, BASIC.split(':')[1]!, Buffer.from(BASIC).toString('base64'), WEBHOOK_SECRET, ...keyLines];
    const sent = fake.requests.map((r) => `${r.path}?${r.query.toString()} ${JSON.stringify(r.body ?? '')}`);
    const posted = repo.comments.map((c) => c.body).join('\n') + JSON.stringify(repo.checkRuns);
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of secrets) {
      expect(
        sent.filter((s) => s.includes(secret)),
        secret,
      ).toEqual([]);
      expect(
        lines.filter((l) => l.includes(secret)),
        secret,
      ).toEqual([]);
      expect(posted.includes(secret), secret).toBe(false);
    }
  });

  it("the CLI's stdout and stderr never show Prometheus credentials", async () => {
    const echo = await startServer((req, res) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'error', error: `denied for ${String(req.headers.authorization)}` })),
    );
    closers.push(() => echo.close());
    const dir = mkdtempSync(join(tmpdir(), 'gpu-justify-secrets-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    for (const [side, gpus] of [
      ['base', 6],
      ['head', 12],
    ] as const) {
      mkdirSync(join(dir, side, 'clusters/prod'), { recursive: true });
      writeFileSync(join(dir, side, QUEUE_FILE), clusterQueue(gpus));
      writeFileSync(join(dir, side, 'gpu-workloads.yaml'), CATALOG);
    }
    const withUserinfo = echo.url.replace('http://', `http://url-user:url-pass-93xq@`);
    for (const [url, env] of [
      [echo.url, { PROMETHEUS_BEARER_TOKEN: BEARER }],
      [echo.url, { PROMETHEUS_BASIC_AUTH: BASIC }],
      [withUserinfo, {}],
    ] as const) {
      // Asynchronous: the stand-in Prometheus answers from this process's event loop.
      const cli = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            '--import',
            'tsx',
            'src/cli/run.ts',
            'review',
            '--base',
            join(dir, 'base'),
            '--head',
            join(dir, 'head'),
            '--prometheus',
            url,
            '--format',
            'json',
          ],
          { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
          (_err, stdout, stderr) => resolve({ stdout, stderr }),
        );
      });
      const output = `${cli.stdout}\n${cli.stderr}`;
      expect(cli.stdout.length + cli.stderr.length).toBeGreaterThan(0);
      for (const secret of [
        BEARER,
        BASIC,
        's3cr3t-basic-pw-41',
        Buffer.from(BASIC).toString('base64'),
        'url-pass-93xq',
        Buffer.from('url-user:url-pass-93xq').toString('base64'),
      ]) {
        expect(output.includes(secret), `${secret} in ${output.slice(0, 300)}`).toBe(false);
      }
    }
  }, 180_000); // three CLI processes run one after another, each allowed 60 s
});
