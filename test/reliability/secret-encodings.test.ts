import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor, REDACTED, secretForms } from '../../src/util/redact.js';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';
import { AppServer, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { prEvent, pullRequest } from '../github/app-harness.js';
import { MEASURED_CATALOG, QUEUE_FILE, clusterQueue } from '../github/scenarios.js';
import { runCli } from '../cli/run-cli.js';
import { startServer } from '../telemetry/local-server.js';
import type { SeenRequest } from '../telemetry/local-server.js';

/** Characters that URL-encode and base64 differently from their raw form. */
const TOKEN = 'tok/9+Qz=secret:41~x';
const USER = 'reader@corp';
const PASSWORD = 'p@ss w0rd/77&q';
const TENANT_KEY = 'tenant-key?Zz=9/8';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Every encoding a careless upstream might echo a credential in. */
function encodings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), b64(secret), Buffer.from(secret).toString('base64url'), JSON.stringify(secret).slice(1, -1)];
}

/** An upstream that refuses every query and echoes every credential it was sent, in every encoding. */
async function echoServer() {
  const echo = (req: SeenRequest) => {
    const auth = String(req.headers.authorization ?? '');
    const key = String(req.headers['x-api-key'] ?? '');
    const token = auth.replace(/^(Bearer|Basic) /, '');
    const decoded = auth.startsWith('Basic ') ? Buffer.from(token, 'base64').toString('utf8') : token;
    const parts = [auth, key, token, decoded, ...decoded.split(':')].filter((p) => p !== '');
    return parts.flatMap(encodings).join(' | ');
  };
  const server = await startServer((req, res) => {
    const body = JSON.stringify({ status: 'error', errorType: 'bad_data', error: `denied: ${echo(req)}`, message: `denied: ${echo(req)}` });
    res.writeHead(400, { 'content-type': 'application/json' }).end(body);
  });
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

function expectNoSecret(where: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets)
    for (const form of encodings(secret)) expect(text.includes(form), `${form} in ${where}: ${text.slice(0, 400)}`).toBe(false);
}

describe('the redactor', () => {
  it('scrubs a secret raw, URL-encoded, base64 (alone or inside a longer base64 text), JSON-escaped and in a Basic credential', () => {
    const r = new Redactor().addBasic(USER, PASSWORD).add(TOKEN);
    for (const form of [...encodings(TOKEN), ...encodings(PASSWORD), `Basic ${b64(`${USER}:${PASSWORD}`)}`]) {
      expect(r.redact(`before ${form} after`)).toBe(`before ${REDACTED} after`);
    }
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const inside = b64(`${prefix}${TOKEN}!`);
      expect(r.redact(inside)).toContain(REDACTED);
    }
    expect(r.redact('nothing secret here')).toBe('nothing secret here');
  });

  it('ignores values too short to be secrets, and lists longer forms first', () => {
    expect(secretForms('ab')).toEqual([]);
    const forms = secretForms(TOKEN);
    expect(forms.map((f) => f.length)).toEqual([...forms.map((f) => f.length)].sort((a, b) => b - a));
  });
});

describe('secrets never leave, in any encoding', () => {
  it('through the App: an upstream echoing every credential reaches no comment, check, log line or GitHub request', async () => {
    const prometheus = await echoServer();
    const opencost = await echoServer();
    const privateKey = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    const fake = await FakeGitHub.start();
    closers.push(() => fake.close());
    const pr = pullRequest();
    pr.baseFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    pr.headFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    const repo = new FakeRepo(fake, pr).serve();
    const { lines, log } = logSink();
    const withUserinfo = (url: string) => url.replace('http://', `http://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@`);
    const env = {
      PROMETHEUS_URL: withUserinfo(prometheus.url),
      PROMETHEUS_BEARER_TOKEN: TOKEN,
      PROMETHEUS_HEADERS: JSON.stringify({ 'X-Api-Key': TENANT_KEY }),
      OPENCOST_URL: withUserinfo(opencost.url),
    };
    const app = await AppServer.start(createGpuJustifyApp({ telemetry: telemetryFromEnv(env) }), fake.url, { log, privateKey });
    closers.push(() => app.close());

    expect((await app.deliver('pull_request', prEvent())).status).toBe(200);

    // The upstream was asked with the credentials and echoed them; the App said it refused.
    expect(prometheus.seen.some((r) => r.headers.authorization === `Bearer ${TOKEN}` && r.headers['x-api-key'] === TENANT_KEY)).toBe(true);
    const check = repo.checkRuns.at(-1);
    expect(check?.status).toBe('completed');
    const posted = `${repo.comments.map((c) => c.body).join('\n')}\n${JSON.stringify(repo.checkRuns)}`;
    expect(posted).toMatch(/denied: Bearer (\*\*\*|\\\*\\\*\\\*)/);
    const sent = fake.requests.map((r) => `${r.path}?${r.query.toString()} ${JSON.stringify(r.body ?? '')}`).join('\n');
    const keyLines = privateKey.split('\n').filter((l) => !l.startsWith('-----') && l.length > 20);
    const secrets = [TOKEN, PASSWORD, `${USER}:${PASSWORD}`, TENANT_KEY, WEBHOOK_SECRET];
    expectNoSecret('the comment and check', posted, secrets);
    expectNoSecret('requests to GitHub', sent, secrets);
    expectNoSecret('the logs', lines.join('\n'), secrets);
    for (const line of keyLines) expect(`${posted}\n${lines.join('\n')}`.includes(line)).toBe(false);
  });

  it('through the CLI: an upstream echoing URL credentials and headers reaches neither stdout nor stderr', async () => {
    const prometheus = await echoServer();
    const dir = mkdtempSync(join(tmpdir(), 'gpu-justify-encodings-'));
    closers.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    for (const [side, gpus] of [
      ['base', 6],
      ['head', 12],
    ] as const) {
      mkdirSync(join(dir, side, 'clusters/prod'), { recursive: true });
      writeFileSync(join(dir, side, QUEUE_FILE), clusterQueue(gpus));
      writeFileSync(join(dir, side, 'gpu-workloads.yaml'), MEASURED_CATALOG);
    }
    const url = prometheus.url.replace('http://', `http://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@`);
    for (const format of ['json', 'markdown']) {
      const cli = await runCli('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--prometheus', url, '--format', format);
      const output = `${cli.stdout}\n${cli.stderr}`;
      expect(prometheus.seen.length).toBeGreaterThan(0);
      expect(output).toMatch(/denied: Basic (\*\*\*|\\\*\\\*\\\*)/);
      expectNoSecret(`CLI ${format} output`, output, [PASSWORD, `${USER}:${PASSWORD}`]);
    }
  });
});
