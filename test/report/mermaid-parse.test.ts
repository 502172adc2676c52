import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { useMermaidPage } from './mermaid-page.js';
import { parseMermaid } from '../helpers/browser/comment-page.mjs';
import { allComments, mermaidBlocks } from './comments.js';

// One browser and one page for the file (loading mermaid is the slow part).
const chromium = useMermaidPage();

describe('mermaid charts in the comment', () => {
  it('parse with mermaid’s own parser, for the demo, every verdict, every measured lever and hostile names', async () => {
    const comments = await allComments();
    const drawn: Record<string, string[]> = {};
    for (const [name, body] of comments) {
      drawn[name] = [];
      for (const block of mermaidBlocks(body)) {
        const parsed = await parseMermaid(chromium.page, block);
        expect(parsed, `${name}:\n${block}`).toEqual({ ok: true, diagramType: match.stringMatching(/^(gantt|xychart)$/), error: null });
        drawn[name].push(block.includes('% of allocated GPU-hours') ? 'ladder' : (parsed.diagramType ?? ''));
      }
    }
    const planned = ['gantt', 'xychart'];
    // The demo draws its ladder once it replays telemetry.
    const demo = (comments.find(([name]) => name === 'demo')?.[1] ?? '').includes('Utilisation ladder') ? [...planned, 'ladder'] : planned;
    expect(drawn).toEqual({
      demo,
      'not-justified': planned,
      'partially-justified': planned,
      justified: planned,
      'insufficient-evidence': [],
      'no-gpu-change': [],
      // Services are sized, not staggered: only their ladder is a picture.
      'lever borrow-quota': [...planned, 'ladder'],
      'lever reclaim-idle': [...planned, 'ladder'],
      'lever batching': ['ladder'],
      'lever cheaper-model': ['ladder'],
      'lever partial-telemetry': [...planned, 'ladder'],
      'hostile names': planned,
      'hostile measured names': [...planned, 'ladder'],
    });
  });

  it('fails a broken chart, so the check above can fail', async () => {
    const [, body] = (await allComments())[0] ?? ['', ''];
    const [gantt = '', xychart = ''] = mermaidBlocks(body);
    // A task whose data is gone (as when a name's own `:` ends it early), and a series with an
    // unclosed bracket.
    const brokenGantt = gantt.replace(/ :active, .*$/m, ' :');
    const brokenXy = xychart.replace(/bar \[(.*)\]/, 'bar [$1');
    expect(brokenGantt).not.toBe(gantt);
    expect(brokenXy).not.toBe(xychart);
    expect((await parseMermaid(chromium.page, brokenGantt)).ok).toBe(false);
    expect((await parseMermaid(chromium.page, brokenXy)).error).toMatch(/parse error/i);
  });

  it('fails a ladder chart whose series lost a bracket', async () => {
    const ladder =
      mermaidBlocks((await allComments()).find(([name]) => name === 'lever reclaim-idle')?.[1] ?? '').find((b) =>
        b.includes('% of allocated'),
      ) ?? '';
    expect((await parseMermaid(chromium.page, ladder)).ok).toBe(true);
    const broken = ladder.replace(/x-axis \[(.*)\]/, 'x-axis [$1');
    expect(broken).not.toBe(ladder);
    expect((await parseMermaid(chromium.page, broken)).ok).toBe(false);
  });
});
