import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactorInputs, redactorProblems, secretReadable } from '../../bench/reliability/fuzz/redactor-encodings.js';
import { Redactor, REDACTED } from '../../src/util/redact.js';
import { createGpuJustifyApp } from '../../src/github/app/app.js';
import { telemetryFromEnv } from '../../src/telemetry/from-env.js';
import { AppServer, newPrivateKey, WEBHOOK_SECRET } from '../helpers/app-server.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { FakeRepo } from '../helpers/fake-repo.js';
import { prEvent, pullRequest } from '../github/app-harness.js';
import { MEASURED_CATALOG, QUEUE_FILE, clusterQueue } from '../github/scenarios.js';
import { runCli } from '../cli/run-cli.js';
import { startServer } from '../telemetry/local-server.js';
import type { SeenRequest } from '../telemetry/local-server.js';
import { eventually } from '../helpers/eventually.js';
import { FAIL_FAST } from '../helpers/fail-fast-property.js';

/**
 * A Basic-auth password of the characters every escaping writes differently, echoed back by
 * Prometheus in each style an upstream, a proxy or a Go program uses, must reach no comment, check,
 * log line, GitHub request body or CLI output in any of them.
 */
const USER = 'reader';
const PASSWORD = "p&<>'/+= Zq~x";
const PAIR = `${USER}:${PASSWORD}`;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const goJson = (s: string) =>
  JSON.stringify(s).slice(1, -1).replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\//g, '\\/');
const lowerPercent = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
    .toLowerCase();
const entities = (s: string) =>
  [...s].map((c, i) => (i % 2 === 0 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`)).join('');
const named = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** Quoted-printable with a soft line break before every other character, as a mail body wraps it. */
const softWrapped = (s: string) =>
  [...s]
    .map((c, i) => {
      const escaped = /[A-Za-z0-9 ]/.test(c)
        ? c
        : [...Buffer.from(c)].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      return i % 2 === 1 ? `=\r\n${escaped}` : escaped;
    })
    .join('');
/** Every character but letters and digits as CSS escapes it: hex digits and a space. */
const css = (s: string) => [...s].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\${(c.codePointAt(0) ?? 0).toString(16)} `)).join('');

const hexBytes = (s: string) => [...Buffer.from(s)].map((b) => b.toString(16).padStart(2, '0'));

/** Every style the credential comes back in: each is a way the report once let it through. */
function echoes(credential: string): string[] {
  const basic = Buffer.from(credential).toString('base64');
  return [
    goJson(credential),
    lowerPercent(credential),
    lowerPercent(credential).toUpperCase(),
    new URLSearchParams({ x: credential }).toString().slice(2),
    // Only some characters encoded, as a hand-written URL has them.
    credential.replace(/\//g, '%2f').replace(/&/g, '%26'),
    entities(credential),
    named(credential),
    // Escapes inside escapes: percent-encoded Go JSON, HTML of percent-encoding.
    encodeURIComponent(goJson(credential)),
    named(lowerPercent(credential)),
    credential.toUpperCase(),
    basic,
    Buffer.from(credential).toString('base64url'),
    goJson(`Basic ${basic}`),
    // Quoted by doubling or reopening its quote: YAML's single quotes, a shell command echoed.
    `'${credential.replace(/'/g, "''")}'`,
    `'${credential.replace(/'/g, "'\\''")}'`,
    `'${credential.replace(/'/g, `'"'"'`)}'`,
    credential.replace(/[^A-Za-z0-9 ]/g, '\\$&'),
    // A hex dump with something between the bytes (`xxd`, Go's `% x`, a byte array).
    hexBytes(credential).join(' '),
    hexBytes(credential).join(':').toUpperCase(),
    hexBytes(credential)
      .map((h) => `0x${h}`)
      .join(', '),
    // UTF-16 units as hex, as a debugger or a Java/.NET dump shows a string.
    units(credential).join(''),
    units(credential).join(' '),
    Buffer.from(credential, 'utf16le').toString('hex'),
    // Quoted-printable, as a mail body or a MIME part carries it (`=` itself written `=3D`).
    credential.replace(/[^A-Za-z0-9 ]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
    // HTML numeric references without their `;`, which HTML still reads.
    credential.replace(/[^A-Za-z0-9 ]/g, (c) => `&#${c.charCodeAt(0)}`),
    // Hex, with its `;` only where a hex digit follows (HTML reads the longest run); the legacy
    // names HTML reads without one.
    [...credential]
      .map((c, i, all) =>
        /[A-Za-z0-9 ]/.test(c) ? c : `&#x${c.charCodeAt(0).toString(16)}${/[0-9a-f]/i.test(all[i + 1] ?? '') ? ';' : ''}`,
      )
      .join(''),
    credential.replace(/&/g, '&amp').replace(/</g, '&lt').replace(/>/g, '&gt'),
    // A shell's backslashes, the space's too.
    credential.replace(/[^A-Za-z0-9]/g, '\\$&'),
    // Escapes composed past one reading: named references closed by an escaped `;`,
    // quoted-printable with soft breaks under CSS escapes and wrapped twice, bare hex references of
    // every character (a wide one's three or four digits before the next hex digit).
    named(credential).replace(/;/g, '\\x3b'),
    named(credential).replace(/;/g, '%3B'),
    css(softWrapped(credential)),
    softWrapped(softWrapped(credential)),
    [...`${credential}日a`].map((c) => `&#x${(c.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`).join(''),
    // Cut into two JSON strings, of an object and of a list.
    `{"status":"error","user":"${goJson(credential.slice(0, 6))}","detail":"${goJson(credential.slice(6))}"}`,
    `["${goJson(credential.slice(0, 5))}", "${goJson(credential.slice(5))}"]`,
  ];
}

/** Each UTF-16 unit of `s` as four hex digits. */
const units = (s: string) => [...s].flatMap((c) => c.split('')).map((u) => u.charCodeAt(0).toString(16).padStart(4, '0'));

/** A Prometheus that refuses every query, echoing the credentials it got in every style. */
async function echoingPrometheus() {
  const echo = (req: SeenRequest) => {
    const auth = String(req.headers.authorization ?? '');
    const decoded = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    return [decoded, password].flatMap(echoes).join(' | ');
  };
  const server = await startServer((req, res) => {
    const text = echo(req);
    const body = JSON.stringify({ status: 'error', errorType: 'bad_data', error: `denied: ${text}`, warnings: [text] });
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

function expectUnreadable(where: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets) expect(secretReadable(text, secret), `${secret} readable in ${where}: ${text.slice(0, 600)}`).toBe(false);
}

describe('the redactor, over every escape', () => {
  it('masks each style the issue saw, in either case', () => {
    const r = new Redactor().addBasic(USER, PASSWORD);
    for (const secret of [PAIR, PASSWORD]) {
      for (const form of echoes(secret)) {
        const out = r.redact(`<${form}>`);
        expect(out, form).toContain(REDACTED);
        expect(secretReadable(out, PASSWORD), `${form} → ${out}`).toBe(false);
      }
    }
    expect(r.redact('nothing & nothing < else / here')).toBe('nothing & nothing < else / here');
  });

  it("knows the operator's every secret from the environment: state secret, Redis password, a key with its line breaks written out", async () => {
    const key = newPrivateKey();
    vi.resetModules();
    vi.stubEnv('GPU_JUSTIFY_STATE_SECRET', 'state-secret-&/=9');
    vi.stubEnv('REDIS_URL', 'redis://default:redis-pw%2F77@redis:6379');
    vi.stubEnv('PRIVATE_KEY', key.replace(/\n/g, '\\n'));
    try {
      const { redactSecrets } = await import('../../src/util/redact.js');
      const line = key.split('\n')[3] ?? '';
      const out = redactSecrets(`a state-secret-%26%2f%3d9 b redis-pw/77 c redis-pw%2f77 d ${line} e`);
      for (const secret of ['state-secret-&/=9', 'redis-pw/77', line]) expect(secretReadable(out, secret), out).toBe(false);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('fuzzed: random secrets through random chains of escapes, base64 and case never read back', () => {
    fc.assert(
      fc.property(redactorInputs(), (input) => {
        expect(redactorProblems(input)).toEqual([]);
      }),
      { ...FAIL_FAST, numRuns: 2_000, seed: 20_261_205 },
    );
    // Past the property's own time limit, so a slow run fails as the property's, saying so.
  }, 60_000);
});

describe('the redactor, over shapes its fuzzing found', () => {
  const utf16Hex = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex');
  const cases: [string, string, string][] = [
    // Quoted-printable whose decoding makes a new escape of `auth=` and the secret's first digits,
    // with a line break inside the secret written `=0A`.
    ['09€ 1mHU+,4,?yZDzb', 'auth==30=39=E2=82=AC=20=31=6D=48=55=2B=0A=2C=34=2C=3F=79=5A=44=7A=62', 'qp, =0A inside'],
    // Soft line breaks (CRLF and LF) between escapes, lower-case hex, a character of three bytes.
    ['pa/s€wd=x1', 'pa=\r\n=2fs=e2=\n=82=ac=\r\nwd=3d=\nx1', 'qp, soft breaks'],
    ['pa/s€wd=x1', '{"m":"pa=\\r\\n=2fs=e2=\\n=82=acwd=3dx1"}', 'qp, soft breaks JSON-escaped'],
    // Seven characters (too short to be looked for across lines) in a YAML scalar of a shell word.
    ["H1F'Lx]", "denied for H1F''\\''Lx]", 'shell quoting in YAML quoting'],
    ["H1F'Lx]", "'H1F'\\''Lx]' in 'H1F''\\''''Lx]'", 'YAML quoting of a shell word'],
    // Hex references without their `;` before hex digits of the secret, and with a `;` of the secret.
    ['/d/ea;b', 'x &#x2fd&#x2fea;b y', 'bare hex references'],
    // UTF-16 units of a Basic credential's base64, big- and little-endian.
    ['s3cr3t-p4ss', `dump ${utf16Hex(Buffer.from('s3cr3t-p4ss').toString('base64'))} end`, 'units of base64'],
    ['s3cr3t-p4ss', `dump ${Buffer.from(Buffer.from('s3cr3t-p4ss').toString('base64'), 'utf16le').toString('hex')}`, 'units of base64, LE'],
    // A shell's backslash before the line break of a wrapped, escaped line.
    ['tok3n/Wr4pped/x', 'error: tok3n\\/Wr4\\\n2026\\-12\\-07 pped\\/x', 'backslash line continuation'],
    // A zero-width character right before a colour.
    ['x7sd/Oq', 'x\u200d7sd\u200d\x1b[0m/\x1b[1;32mOq', 'zero-width before ANSI'],
    // Legacy named references whose `;` a JavaScript, Go or URL writer escaped once more.
    ['pa&s<wd>x1', 'pa&amp\\x3bs&lt\\u003bwd&gt%3bx1', 'named references closed by an escaped ;'],
    // Quoted-printable with soft breaks under CSS escapes (`\3d \d \a ` is `=` and a CRLF).
    ['pa/s=wd&x1', 'pa\\3d \\d \\a \\3d 2Fs\\3d \\d \\a \\3d 3Dw\\3d \\d \\a d\\3d 26\\3d \\d \\a x1', 'quoted-printable under CSS'],
    // Quoted-printable wrapped twice: the first decoding holds soft breaks again.
    ['pa/s=wd&x1', 'pa=3D=\r\n=0D=0A=3D2Fs=3D=0D=0A=3D=\r\n3Dwd=3D26=\r\nx1', 'quoted-printable wrapped twice'],
    // A secret ending in a backslash before the upstream's `<`, under Markdown and escaped `;`.
    ['XHlNZV0X}1?v&iLh]Y\\', '{"error":"XHlNZV0X\\}1\\?v\\&amp\\x3biLh\\]Y\\\\</p>', 'a trailing backslash before <'],
    // Hex references without `;` of three and four digits before the secret's next hex digit.
    ['x日aq/b', 'x&#x65e5aq&#x2f;b', 'four-digit bare reference'],
    ['ǟa/bǟc', '&#x1dfa&#x2fb&#x1dfc', 'three-digit bare references'],
  ];
  for (const [secret, text, what] of cases) {
    it(`masks ${what}`, () => {
      const out = new Redactor().add(secret).redact(text);
      expect(out, what).toContain(REDACTED);
      expect(secretReadable(out, secret), `${what}: ${out}`).toBe(false);
    });
  }
});

describe('a credential echoed in every escape style', () => {
  // Every log line and write of a whole review passes the redactor: on a loaded machine that
  // alone has come within a second of the default 30 s.
  it('through the App: reaches no comment, check, log line or GitHub request body', async () => {
    const prometheus = await echoingPrometheus();
    const privateKey = newPrivateKey();
    const fake = await FakeGitHub.start();
    closers.push(() => fake.close());
    const pr = pullRequest();
    pr.baseFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    pr.headFiles['gpu-workloads.yaml'] = MEASURED_CATALOG;
    const repo = new FakeRepo(fake, pr).serve();
    const { lines, log } = logSink();
    const env = { PROMETHEUS_URL: prometheus.url, PROMETHEUS_BASIC_AUTH: PAIR };
    const app = await AppServer.start(createGpuJustifyApp({ telemetry: telemetryFromEnv(env) }), fake.url, { log, privateKey });
    closers.push(() => app.close());

    // On a loaded machine the review can outlast the webhook's answer (202): wait for its end.
    expect([200, 202]).toContain((await app.deliver('pull_request', prEvent())).status);
    const done = () => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.length > 0;
    await eventually(done, { what: 'the check concluded and the comment written', state: () => repo.checkRuns });

    expect(prometheus.seen.some((r) => r.headers.authorization === `Basic ${Buffer.from(PAIR).toString('base64')}`)).toBe(true);
    expect(repo.checkRuns.at(-1)?.status).toBe('completed');
    const posted = `${repo.comments.map((c) => c.body).join('\n')}\n${JSON.stringify(repo.checkRuns)}`;
    // The refusal is reported, its echo masked.
    expect(posted).toMatch(/denied: (\*\*\*|\\\*\\\*\\\*)/);
    const secrets = [PASSWORD, PAIR, WEBHOOK_SECRET];
    expectUnreadable('the comment and check', posted, secrets);
    for (const request of fake.requests) {
      expectUnreadable(
        `${request.method} ${request.path}`,
        `${request.path}?${request.query.toString()} ${JSON.stringify(request.body ?? '')}`,
        secrets,
      );
    }
    expectUnreadable('the logs', lines.join('\n'), secrets);
    const keyLines = privateKey.split('\n').filter((l) => !l.startsWith('-----') && l.length > 20);
    for (const line of keyLines) expect(`${posted}\n${lines.join('\n')}`.includes(line)).toBe(false);
  }, 60_000);

  it('through the CLI: reaches neither stdout nor stderr', async () => {
    const prometheus = await echoingPrometheus();
    const dir = mkdtempSync(join(tmpdir(), 'gpu-justify-escapes-'));
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
      expect(output).toMatch(/denied: (\*\*\*|\\\*\\\*\\\*)/);
      expectUnreadable(`CLI ${format} output`, output, [PASSWORD, PAIR]);
    }
  });
});
