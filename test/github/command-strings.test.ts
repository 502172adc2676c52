import { describe, expect, it } from 'vitest';
import { FakeRepo } from '../helpers/fake-repo.js';
import { commentEvent, pullRequest, useApp } from './app-harness.js';

/**
 * What a commenter writes after `/gpu-justify` comes back in our reply to a command not
 * understood. Through the real App over signed webhooks, in generated shapes: a backtick that
 * would end the code span it is quoted in, then a team mention, an issue reference, a closing
 * keyword and our own marker; bidi controls and invisible characters that would reorder or hide
 * what the reply says. None of it acts, and each control is written out where it stood.
 */

const h = useApp();
const CONTROLS = ['\u202E', '\u2067', '\u200B', '\u2066', '\u061C', '\u{E0041}'];
const TAILS = ['@acme/admins', '#12', 'fixes acme/infra#3', '<!-- gpu-justify:override -->', 'GH-7', 'https://evil.example'];

const shapes = CONTROLS.map((control, i) => {
  const tail = TAILS[i % TAILS.length] as string;
  return { name: `${JSON.stringify(control)} then \`${tail}`, control, given: `ok${control}4 → 8\` ${tail}` };
});

const replies = (repo: FakeRepo) => repo.comments.filter((c) => c.body.includes('gpu-justify commands'));

describe('a command not understood is quoted back inert and visible', () => {
  it.each(shapes)('$name', async ({ control, given }) => {
    const repo = new FakeRepo(h.fake, pullRequest()).serve();

    await h.app.deliver('issue_comment', commentEvent(`/gpu-justify ${given}`, { commentId: 777 }));

    const body = replies(repo)[0]?.body ?? '';
    expect(body).toContain(': unknown command');
    // The zero-width spaces that part our own markers' characters are ours; the commenter's are written out.
    expect(body.replace(/<\u200B!|-\u200B-/g, '')).not.toContain(control);
    expect(body).toMatch(/⟨U\+[0-9A-F]{4,5}⟩/);
    // One code span holds all of it: nothing the commenter wrote stands outside one.
    const outside = body.split(/`[^`\n]*`/).join(' ');
    for (const tail of TAILS) expect(outside).not.toContain(tail);
    expect(body.match(/<!--/g)?.length ?? 0).toBe(1); // our reply marker alone
  });
});
