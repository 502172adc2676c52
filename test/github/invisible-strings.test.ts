import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeRepo } from '../helpers/fake-repo.js';
import { runCli } from '../cli/run-cli.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { clusterQueue, QUEUE_FILE } from './scenarios.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Bidi controls and invisible characters in the names a PR chooses, through the real App over
 * HTTP against the strict fake GitHub, and through the CLI: what GitHub is asked to show (the
 * comment, the check run and its annotations, suggestions) and what the CLI prints hold none of
 * them raw, and show each where it stood.
 */

const h = useApp();

/** A queue whose name a right-to-left override would show as `gpu-4 → 8`. */
const QUEUE = 'gpu-\u202E8 \u2192 4\u202C';
/** A file name with a zero-width space and a right-to-left isolate. */
const FILE = 'clusters/\u2067prod\u2069/queues\u200B.yaml';
const SHOWN_QUEUE = 'gpu-⟨U+202E⟩8 → 4⟨U+202C⟩';
const SHOWN_FILE = 'clusters/⟨U+2067⟩prod⟨U+2069⟩/queues⟨U+200B⟩.yaml';

const RAW = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\u2028\u2029]/u;

/** The characters of the class in `text`, apart from our own parting zero-width spaces and emoji selectors. */
function raw(text: string): string[] {
  const chars = [...text];
  return chars.flatMap((ch, i) => {
    if (ch === '\n' || ch === '\r' || ch === '\t' || !RAW.test(ch)) return [];
    if (ch === '\u200B' && /^[#HhWw:@<-]$/.test(chars[i - 1] ?? '')) return [];
    if (ch === '\uFE0F' && /\p{Extended_Pictographic}/u.test(chars[i - 1] ?? '')) return [];
    return [`U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}`];
  });
}

/** Right-to-left characters outside an isolate (U+2068 … U+2069), and isolates left open. */
function bareRtl(text: string): string[] {
  let depth = 0;
  const out: string[] = [];
  for (const ch of text) {
    if (ch === '\u2068') depth++;
    else if (ch === '\u2069') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE]/u.test(ch)) out.push(ch);
  }
  return depth > 0 ? [...out, 'open isolate'] : out;
}

function queueNamed(gpus: number, name: string): string {
  return clusterQueue(gpus).replace('name: research', `name: ${JSON.stringify(name)}`);
}

describe('invisible characters in PR names', () => {
  it('through the App: no write to GitHub holds one raw; the comment and the check show each', async () => {
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, {
      ...state,
      baseFiles: { ...state.baseFiles, [FILE]: queueNamed(2, QUEUE) },
      headFiles: { ...state.headFiles, [FILE]: queueNamed(8, QUEUE) },
    }).serve();

    expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
    const done = () => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.length > 0;
    await eventually(done, { what: 'the check concluded and the comment written', timeoutMs: 30_000, state: () => repo.checkRuns });

    // Reads name the file as it is (GitHub must find it); everything written shows it.
    const written = h.fake.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql' && !r.path.endsWith('/access_tokens'));
    expect(written.length).toBeGreaterThan(1);
    for (const r of written) expect(raw(JSON.stringify(r.body ?? '')), `${r.method} ${r.path}`).toEqual([]);
    const body = repo.comments[0]?.body ?? '';
    expect(body).toContain(SHOWN_QUEUE);
    expect(body).toContain(SHOWN_FILE);
    const check = repo.checkRuns.at(-1);
    const annotations = (check?.output.annotations ?? []) as { path: string; title?: string }[];
    expect(annotations.map((a) => a.path)).toContain(SHOWN_FILE);
    expect(annotations.some((a) => (a.title ?? '').startsWith(SHOWN_QUEUE))).toBe(true);
    // No suggestion on a file no one can read the name of: it would apply what nobody saw.
    // The queue file beside it, plainly named, gets its suggestion: suggestions were posted.
    const suggested = repo.reviews.flatMap((r) => r.comments).map((c) => c.path);
    expect(suggested).toContain(QUEUE_FILE);
    expect(suggested).not.toContain(FILE);
  });

  it('through the App: a right-to-left name reaches GitHub only inside an isolate, so nothing beside it turns round', async () => {
    const queue = 'קו-ב';
    const file = 'clusters/צוות 2/queues.yaml';
    const state = pullRequest({}, ENFORCE_POLICY);
    const repo = new FakeRepo(h.fake, {
      ...state,
      baseFiles: { ...state.baseFiles, [file]: queueNamed(2, queue) },
      headFiles: { ...state.headFiles, [file]: queueNamed(8, queue) },
    }).serve();
    await h.app.deliver('pull_request', prEvent());
    const done = () => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.length > 0;
    await eventually(done, { what: 'the check concluded and the comment written', timeoutMs: 30_000, state: () => repo.checkRuns });
    const written = h.fake.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql' && !r.path.endsWith('/access_tokens'));
    for (const r of written) expect(bareRtl(JSON.stringify(r.body ?? '')), `${r.method} ${r.path}`).toEqual([]);
    const annotations = (repo.checkRuns.at(-1)?.output.annotations ?? []) as { title?: string }[];
    expect(annotations.some((a) => (a.title ?? '').startsWith('\u2068קו-ב\u2069: 2 → 8 GPUs'))).toBe(true);
  });

  it('through the CLI: JSON keeps the names as data with the characters escaped; text, tables and stderr show them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpu-justify-invisible-'));
    try {
      for (const [side, gpus] of [
        ['base', 2],
        ['head', 8],
      ] as const) {
        mkdirSync(join(dir, side, 'clusters', '\u2067prod\u2069'), { recursive: true });
        writeFileSync(join(dir, side, FILE), queueNamed(gpus, QUEUE));
      }
      const detect = await runCli('detect', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--json');
      expect(raw(detect.stdout)).toEqual([]);
      expect(detect.stdout).toContain('\\u202e');
      const json = JSON.parse(detect.stdout) as { changes: { file: string; name: string }[] };
      expect(json.changes.map((c) => [c.file, c.name])).toEqual([[FILE, QUEUE]]);

      const text = await runCli('detect', '--base', join(dir, 'base'), '--head', join(dir, 'head'));
      expect(raw(text.stdout)).toEqual([]);
      expect(text.stdout).toContain(`${SHOWN_FILE}:`);
      expect(text.stdout).toContain(SHOWN_QUEUE);

      writeFileSync(
        join(dir, 'catalog.yaml'),
        `workloads:\n  - name: ${JSON.stringify(`eval-${QUEUE}`)}\n    type: batch\n    queue: q\n    gpusPerJob: 2\n    runtime: 2h\n    jobsPerDay: 2\n    window: { earliestStart: "00:00", deadline: "06:00" }\n`,
      );
      const stagger = await runCli('stagger', '--catalog', join(dir, 'catalog.yaml'));
      expect(stagger.code).toBe(0);
      expect(raw(stagger.stdout + stagger.stderr)).toEqual([]);
      expect(stagger.stdout).toContain(`eval-${SHOWN_QUEUE}`);

      const review = await runCli('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'));
      expect(raw(review.stdout)).toEqual([]);
      expect(review.stdout).toContain(SHOWN_QUEUE);

      const missing = await runCli(
        'review',
        '--base',
        join(dir, 'base'),
        '--head',
        join(dir, 'head'),
        '--catalog',
        join(dir, '\u202Egpu.yaml'),
      );
      expect(missing.stderr).toContain('⟨U+202E⟩gpu.yaml');
      expect(raw(missing.stderr)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
