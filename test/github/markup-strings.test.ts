import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { eventually } from '../helpers/eventually.js';
import { ENFORCE_POLICY, prEvent, pullRequest, useApp } from './app-harness.js';
import { clusterQueue } from './scenarios.js';

/**
 * Markdown and HTML a pull request writes into the names it chooses (queue names, file paths),
 * through the real App over HTTP against the strict fake GitHub: nothing of it acts in what the
 * App writes. No mention, issue reference, link, image, HTML tag or hidden-comment marker forms,
 * and no table row breaks, in the comment, the check run (summary, text, annotations) or the
 * suggestions.
 */

const h = useApp();

/** Names built to act when written raw into markdown: each a shape seen in a different place. */
const HOSTILE_NAMES = [
  'q-@octo-org/admins',
  'q #123 GH-9 acme/infra#4',
  'q](https://evil.example/x)',
  'q ![i](https://evil.example/p.png)',
  'q <img src=x onerror=alert(1)>',
  'q --> <!-- gpu-justify',
  'q | 9 | 9 |',
  'q `code` **bold** _it_',
  'q </details></summary>',
  'q www.evil.example',
];

/** Our own: the hidden markers, fenced blocks (the mermaid chart), code spans and links into the repository. */
function outsideCode(markdown: string): string {
  return markdown
    .replace(/<!-- gpu-justify:[^\n]*?-->|<!-- for line [0-9a-f]+ -->/g, ' ')
    .replace(/^```[\s\S]*?^```/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\]\(https:\/\/github\.com\/Codertocat\/Hello-World\/blob\/[^)\s]*\)/g, '] ');
}

/** What in `text` would act on GitHub: mentions, references, autolinks; in markdown, links, images, tags and markers too. */
function acting(text: string, markdown = true): string[] {
  const rules: [string, RegExp][] = [
    ['a mention', /(^|[^\w`])@(?!gpu-admins\b)[A-Za-z0-9][\w-]*/g],
    ['an issue reference', /(^|[^\w&])#\d+|\bGH-\d+|[\w-]+\/[\w.-]+#\d+/g],
    ['an autolink', /https?:\/\/evil|www\.evil/g],
  ];
  if (markdown)
    rules.push(
      ['a link or image to where the PR points', /(?<!\\)\]\([^)\s]*evil/g],
      ['an image tag', /<img\b/gi],
      ['a comment marker', /<!--|-->/g],
    );
  const found: string[] = [];
  for (const [what, re] of rules) for (const m of text.matchAll(re)) found.push(`${what}: ${JSON.stringify(m[0])}`);
  // Our own folds stay whole: a name cannot close one early.
  if (markdown && count(text, /<details>/g) !== count(text, /<\/details>/g)) found.push('a fold closed early');
  return found;
}

function count(text: string, re: RegExp): number {
  return [...text.matchAll(re)].length;
}

/** The name as a code span shows it whole: its backticks as quotes, our markers parted. */
function inCode(name: string): string {
  return `\`queue: ${name
    .replace(/`/g, "'")
    .replace(/<!/g, '<\u200B!')
    .replace(/--(?=>)/g, '-\u200B-')}\``;
}

/** Unescaped `|` in each table row: every row of one table has as many as its header. */
function brokenRows(markdown: string): string[] {
  const out: string[] = [];
  let width: number | null = null;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      width = null;
      continue;
    }
    const pipes = (line.match(/(?<!\\)\|/g) ?? []).length;
    width ??= pipes;
    if (pipes !== width) out.push(line);
  }
  return out;
}

function queueNamed(gpus: number, name: string): string {
  return clusterQueue(gpus).replace('name: research', `name: ${JSON.stringify(name)}`);
}

describe('markup in the names a pull request chooses', () => {
  it('through the App: nothing of it acts in the comment, the check or the suggestions', async () => {
    const state = pullRequest({}, ENFORCE_POLICY);
    const base: Record<string, string> = {};
    const head: Record<string, string> = {};
    HOSTILE_NAMES.forEach((name, i) => {
      // The file names carry the shapes a path can hold (no `/` of its own, no newline).
      const file = `clusters/${name.replace(/\//g, '_')}/q${i}.yaml`;
      base[file] = queueNamed(2, name);
      head[file] = queueNamed(4 + i, name);
    });
    const repo = new FakeRepo(h.fake, {
      ...state,
      baseFiles: { ...state.baseFiles, ...base },
      headFiles: { ...state.headFiles, ...head },
    }).serve();

    expect([200, 202]).toContain((await h.app.deliver('pull_request', prEvent())).status);
    const done = () => repo.checkRuns.at(-1)?.status === 'completed' && repo.comments.length > 0;
    await eventually(done, { what: 'the check concluded and the comment written', timeoutMs: 60_000, state: () => repo.checkRuns });

    const comment = repo.comments[0]?.body ?? '';
    // The comment's own hidden markers are ours; everything else is the names, inert.
    expect(acting(outsideCode(comment))).toEqual([]);
    expect(brokenRows(comment)).toEqual([]);
    const check = repo.checkRuns.at(-1);
    const output = check?.output;
    expect(acting(outsideCode(`${output?.title ?? ''}\n${output?.summary ?? ''}\n${output?.text ?? ''}`))).toEqual([]);
    expect(brokenRows(output?.summary ?? '')).toEqual([]);
    expect(brokenRows(output?.text ?? '')).toEqual([]);
    const annotations = (output?.annotations ?? []) as { title?: string; message?: string }[];
    expect(annotations.length).toBeGreaterThan(0);
    for (const a of annotations) expect(acting(`${a.title ?? ''}\n${a.message ?? ''}`, false)).toEqual([]);
    for (const review of repo.reviews) {
      expect(acting(outsideCode(review.body))).toEqual([]);
      for (const c of review.comments) expect(acting(outsideCode(c.body))).toEqual([]);
    }
    // Each name is shown whole where it is code: a backtick in one never ends the span early.
    for (const name of HOSTILE_NAMES) expect(comment, name).toContain(inCode(name));
  }, 120_000);
});
