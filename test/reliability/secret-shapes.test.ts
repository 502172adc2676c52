import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Redactor } from '../../src/util/redact.js';
import { runCli } from '../cli/run-cli.js';
import { MEASURED_CATALOG, QUEUE_FILE, clusterQueue } from '../github/scenarios.js';
import { startServer } from '../telemetry/local-server.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * Shapes an upstream echoes a credential in besides its escapes: a header's token without its
 * scheme (`Bearer`), a `Basic` header's pair and password decoded, a credential broken over two
 * lines (a wrapped log line, base64 at 76 columns, indentation after the break), a key in a URL's
 * query. None is readable after redaction, and text without a secret is left as it is.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const close of closers.splice(0)) await close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = fc.stringMatching(/^[A-Za-z0-9&<>'/+=_.~-]{12,28}$/).filter((s) => /[A-Za-z]/.test(s) && /\d/.test(s));
const BREAKS = ['\n', '\r\n', '\n    ', '\n\t', '\r\n  '];

/** `text` read as a reader would, the breaks an upstream put in left out. */
const joined = (text: string) => text.replace(/\r?\n[ \t]*/g, '');

describe('the redactor, on shapes beyond escapes', () => {
  it('finds a header credential without its scheme, and a Basic header decoded', () => {
    fc.assert(
      fc.property(secret, secret, fc.constantFrom('Bearer', 'Token', 'bearer', 'ApiKey'), (token, password, scheme) => {
        const r = new Redactor().addHeader(`${scheme} ${token}`).addHeader(`Basic ${b64(`svc-user:${password}`)}`);
        for (const echoed of [`invalid token ${token}`, `user svc-user:${password} denied`, `bad password ${password}.`])
          expect(r.redact(echoed)).not.toMatch(
            new RegExp(`${token.slice(0, 6).replace(/\W/g, '\\$&')}|${password.slice(0, 6).replace(/\W/g, '\\$&')}`),
          );
      }),
      { ...FAIL_FAST, numRuns: 200, seed: 20_261_209 },
    );
  });

  it('finds a credential broken over two lines at any place, and base64 wrapped at 76 columns', () => {
    fc.assert(
      fc.property(secret, fc.nat(), fc.constantFrom(...BREAKS), (password, at, brk) => {
        const r = new Redactor().addBasic('svc-user', password);
        const cut = 1 + (at % (password.length - 1));
        const split = `error: password ${password.slice(0, cut)}${brk}${password.slice(cut)} rejected`;
        expect(joined(r.redact(split))).not.toContain(password);
        const wrapped = b64(`Authorization: svc-user:${password} and a longer line around it so the encoder wraps it`)
          .match(/.{1,76}/g)
          ?.join(brk);
        expect(joined(r.redact(wrapped ?? ''))).not.toContain(b64(`svc-user:${password}`).slice(4, 16));
        expect(r.redact('line one\nline two\r\n  three')).toBe('line one\nline two\r\n  three');
      }),
      { ...FAIL_FAST, numRuns: 300, seed: 20_261_210 },
    );
  });

  it('finds a key an endpoint takes in its query', () => {
    const r = new Redactor().addUrl('https://prom.example/api/v1?api_key=Qk3y-ABCDEF&region=eu');
    expect(r.redact('GET /api/v1?api_key=Qk3y-ABCDEF failed (region eu)')).toBe('GET /api/v1?api_key=*** failed (region eu)');
  });
});

describe('through the CLI, against a Prometheus that echoes them', () => {
  it('a header token echoed bare, a Basic header decoded, a password over two lines: none reaches stdout or stderr', async () => {
    const token = 'tk_9Zq/+=Bv7-secretvalue';
    const password = "pw&<>'/+=Zq81xv";
    vi.stubEnv('PROMETHEUS_HEADERS', JSON.stringify({ Authorization: `Bearer ${token}`, 'X-Proxy': `Basic ${b64(`proxy:${password}`)}` }));
    const server = await startServer((req, res) => {
      const proxy = Buffer.from(String(req.headers['x-proxy'] ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
      const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const pw = proxy.split(':')[1] ?? '';
      const error = `token ${auth} refused; proxy ${proxy}; password ${pw.slice(0, 5)}\n    ${pw.slice(5)} wrong`;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', errorType: 'bad_data', error }));
    });
    closers.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'gpu-justify-shapes-'));
    closers.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    for (const [side, gpus] of [
      ['base', 6],
      ['head', 12],
    ] as const) {
      mkdirSync(join(dir, side, 'clusters/prod'), { recursive: true });
      writeFileSync(join(dir, side, QUEUE_FILE), clusterQueue(gpus));
      writeFileSync(join(dir, side, 'gpu-workloads.yaml'), MEASURED_CATALOG);
    }
    for (const format of ['json', 'markdown']) {
      const cli = await runCli(
        'review',
        '--base',
        join(dir, 'base'),
        '--head',
        join(dir, 'head'),
        '--prometheus',
        server.url,
        '--format',
        format,
      );
      const output = joined(`${cli.stdout}\n${cli.stderr}`.replace(/\\n( |\\t)*/g, ''));
      expect(server.seen.length).toBeGreaterThan(0);
      expect(output).toMatch(/token (\*\*\*|\\\*\\\*\\\*) refused/);
      for (const s of [token, password, `proxy:${password}`, JSON.stringify(password).slice(1, -1)])
        expect(output, format).not.toContain(s);
    }
  });
});
