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
        drawn[name].push(parsed.diagramType ?? '');
      }
    }
    const planned = ['gantt', 'xychart'];
    // The utilisation ladder is a table, and services are sized, not staggered: neither draws a chart.
    expect(drawn).toEqual({
      demo: planned,
      'not-justified': planned,
      'partially-justified': planned,
      justified: planned,
      'insufficient-evidence': [],
      'no-gpu-change': [],
      'lever borrow-quota': planned,
      'lever reclaim-idle': planned,
      'lever batching': [],
      'lever cheaper-model': [],
      'lever partial-telemetry': planned,
      'hostile names': planned,
      'hostile measured names': planned,
    });
  });

  it('fails a broken chart, so the check above can fail', async () => {
    const [, body] = (await allComments())[0] ?? ['', ''];
    const [gantt = '', xychart = ''] = mermaidBlocks(body);
    // A task whose data is gone (as when a name's own `:` ends it early), and a series with an
    // unclosed bracket.
    const brokenGantt = gantt.replace(/ :active, .*$/m, ' :');
    const brokenXy = xychart.replace(/line ("[^"]*") \[(.*)\]/, 'line $1 [$2');
    expect(brokenGantt).not.toBe(gantt);
    expect(brokenXy).not.toBe(xychart);
    expect((await parseMermaid(chromium.page, brokenGantt)).ok).toBe(false);
    expect((await parseMermaid(chromium.page, brokenXy)).error).toMatch(/parse error/i);
  });
});
