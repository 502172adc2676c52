import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { secretReadable } from '../../bench/reliability/fuzz/redactor-encodings.js';
import { Redactor, REDACTED } from '../../src/util/redact.js';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';
import { AppServer, newPrivateKey, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { prEvent, pullRequest } from '../github/app-harness.js';
import { MEASURED_CATALOG } from '../github/scenarios.js';
import { startServer } from '../telemetry/local-server.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * Disguises beyond escaping: a credential written as octal or CSS escapes, as base64 of its base64,
 * with zero-width characters or ANSI colours between its characters, in fullwidth forms, or split
 * over two error lines with a logger's prefix before the rest. None is readable after redaction,
 * through the redactor and through the App (an OpenCost whose URL carries a token in its user info
 * echoing it in a 4xx HTML page, a redirect's `Location` and two error lines), and text holding no
 * secret is left as it is.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const octal = (s: string) => [...Buffer.from(s)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
const cssShort = (s: string) => [...s].map((c) => `\\${(c.codePointAt(0) ?? 0).toString(16)} `).join('');
const cssLong = (s: string) => [...s].map((c) => `\\${(c.codePointAt(0) ?? 0).toString(16).padStart(6, '0')}`).join('');
const fullwidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const between = (s: string, sep: readonly string[]) => [...s].map((c, i) => `${c}${sep[i % sep.length] ?? ''}`).join('');
const INVISIBLE = ['\u200b', '\u2060', '\ufeff', '\u00ad', '\u200d', '\u{e0041}', '\u180e'];
const ANSI = ['\x1b[31m', '\x1b[0m', '\x1b[1;32m', '\x1b]8;;https://x\x07', '\x1b(B'];

/** Each disguise of `credential`: what an upstream, a terminal log or a stylesheet writes. */
function disguises(credential: string): Record<string, string> {
  return {
    octal: octal(credential),
    'octal, some characters': credential.replace(/[&/=+]/g, octal),
    'CSS, short with a space': cssShort(credential),
    'CSS, six digits': cssLong(credential),
    'base64 of base64': b64(b64(credential)),
    'base64 of base64, inside more': b64(`prefix:${b64(credential)}:suffix`).slice(8, -8),
    'zero-width and format characters': between(credential, INVISIBLE),
    'ANSI sequences': between(credential, ANSI),
    'ANSI sequences, JSON-escaped': JSON.stringify(between(credential, ANSI)).slice(1, -1),
    fullwidth: fullwidth(credential),
    'fullwidth, JSON-escaped': JSON.stringify(fullwidth(credential))
      .slice(1, -1)
      .replace(/[\uff01-\uff5e]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`),
  };
}

const PREFIXES = ['', '    ', 'error: ', '2026-12-07T05:00:00Z ERROR ', 'level=error msg="', 'opencost: '];

describe('the redactor, on disguised secrets', () => {
  const TOKEN = "oc-T0k&n/+=<'>9Zq";
  const r = new Redactor().addUrl(`https://reader:${encodeURIComponent(TOKEN)}@opencost.example/`);

  it.each(Object.entries(disguises(TOKEN)))('%s', (_name, form) => {
    const out = r.redact(`denied: ${form} (401)`);
    expect(out).toContain(REDACTED);
    expect(secretReadable(out, TOKEN), out).toBe(false);
  });

  it('a credential split over two error lines, at every place and behind every prefix', () => {
    for (let cut = 1; cut < TOKEN.length; cut++) {
      for (const prefix of PREFIXES) {
        for (const brk of ['\n', '\r\n']) {
          const text = `GET failed: ${TOKEN.slice(0, cut)}${brk}${prefix}${TOKEN.slice(cut)} refused`;
          const out = r.redact(text);
          expect(secretReadable(out, TOKEN), JSON.stringify(out)).toBe(false);
          // Neither part is left whole, however short.
          expect(out.includes(TOKEN.slice(0, cut)) && cut >= 4, JSON.stringify(out)).toBe(false);
          expect(out.includes(TOKEN.slice(cut)) && TOKEN.length - cut >= 4, JSON.stringify(out)).toBe(false);
        }
      }
    }
  });

  it('generated credentials in every disguise are never readable back', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9&<>'/+=_.~-]{8,24}$/).filter((s) => /[A-Za-z]/.test(s) && /\d/.test(s));
    fc.assert(
      fc.property(secret, fc.nat(), fc.constantFrom(...PREFIXES), (s, at, prefix) => {
        const red = new Redactor().add(s);
        for (const form of Object.values(disguises(s))) expect(secretReadable(red.redact(`x ${form} y`), s), form).toBe(false);
        const cut = 1 + (at % (s.length - 1));
        expect(secretReadable(red.redact(`${s.slice(0, cut)}\n${prefix}${s.slice(cut)}`), s)).toBe(false);
      }),
      { ...FAIL_FAST, numRuns: 300, seed: 20_261_207 },
    );
  });

  it('leaves text holding no secret as it is: escapes, colours, invisible and fullwidth characters', () => {
    for (const text of [
      'replace with \\1 and \\2; color: \\26 ; a\\000026b',
      '\x1b[31mred\x1b[0m 👩‍💻 ｗｉｄｅ zero\u200bwidth',
      'line one ends oc-T\nline two',
      `${b64(b64('nothing secret'))} \\101\\102`,
    ]) {
      expect(r.redact(text)).toBe(text);
    }
  });
});

describe('through the App: an OpenCost echoing the token in its URL in every disguise', () => {
  // Every log line and write of a whole review passes the redactor: at load 20 and more the review
  // alone has taken 36 s, past the default 30 s.
  it('reaches no comment, check, log line or GitHub request body, from an HTML page, a Location or two error lines', async () => {
    const TOKEN = "tk&9/Zq=+<x'>vW2";
    const echoed = (t: string) => Object.values(disguises(t)).join(' | ');
    const split = (t: string) => `error: query failed for ${t.slice(0, 7)}\n2026-12-07T05:00:00Z ERROR opencost: ${t.slice(7)} refused`;
    const opencost = await startServer((req, res) => {
      const auth = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
      const token = auth.slice(auth.indexOf(':') + 1);
      if (req.path.includes('allocation') && req.params.get('step') === null) {
        res.writeHead(302, { location: `http://reader:${token}@login.example/?next=${encodeURIComponent(echoed(token))}` }).end();
        return;
      }
      res
        .writeHead(401, { 'content-type': 'text/html' })
        .end(`<html><body><h1>401</h1><pre>${echoed(token)}\n${split(token)}</pre></body></html>`);
    });
    closers.push(() => opencost.close());
    const prometheus = await startServer((req, res) => {
      const auth = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
      const pw = auth.slice(auth.indexOf(':') + 1);
      const error = `denied: ${echoed(pw)}\n${split(pw)}`;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', errorType: 'bad_data', error }));
    });
    closers.push(() => prometheus.close());
    const fake = await FakeGitHub.start();
    closers.push(() => fake.close());
    const pr = pullRequest();
    pr.baseFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    pr.headFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    const repo = new FakeRepo(fake, pr).serve();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const userinfo = (url: string) => url.replace('http://', `http://reader:${encodeURIComponent(TOKEN)}@`);
    const env = { PROMETHEUS_URL: userinfo(prometheus.url), OPENCOST_URL: userinfo(opencost.url) };
    const privateKey = newPrivateKey();
    const app = await AppServer.start(createGpuJustifyApp({ telemetry: telemetryFromEnv(env) }), fake.url, {
      log: pino({ level: 'trace' }, sink),
      privateKey,
    });
    closers.push(() => app.close());

    expect([200, 202]).toContain((await app.deliver('pull_request', prEvent())).status);
    const done = () => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.length > 0;
    await eventually(done, { what: 'the check concluded and the comment written', state: () => repo.checkRuns });

    expect(prometheus.seen.length).toBeGreaterThan(0);
    expect(opencost.seen.length).toBeGreaterThan(0);
    const posted = `${repo.comments.map((c) => c.body).join('\n')}\n${JSON.stringify(repo.checkRuns)}`;
    // The refusal is reported, its echo masked.
    expect(posted).toMatch(/denied: (\*\*\*|\\\*\\\*\\\*)/);
    const sent = fake.requests.map((q) => `${q.path}?${q.query.toString()} ${JSON.stringify(q.body ?? '')}`).join('\n');
    for (const [where, text] of [
      ['the comment and check', posted],
      ['requests to GitHub', sent],
      ['the logs', lines.join('\n')],
    ] as const) {
      for (const secret of [TOKEN, WEBHOOK_SECRET]) expect(secretReadable(text, secret), `${where}: ${text.slice(0, 600)}`).toBe(false);
      expect(text.includes(TOKEN.slice(7)), where).toBe(false);
    }
  }, 60_000);
});
