import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A secret is masked before any surface cuts or escapes a text, never after: the redactor every
 * surface applies at the end finds a secret whole, not the half a cut at a length limit leaves,
 * nor one a mention guard broke with a zero-width space. For every escape of the report, at every
 * cut position, no six characters of the secret are left.
 */
const SECRET = 'Zq9@vK2mW7x://R4pL8n_wwwGH-12#3';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** Every run of six characters of the secret found in `text`. */
function pieces(text: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 6 <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + 6))) out.add(SECRET.slice(i, i + 6));
  return [...out];
}

async function withSecret() {
  vi.resetModules();
  vi.stubEnv('GPU_JUSTIFY_STATE_SECRET', SECRET);
  const escape = await import('../../src/report/escape.js');
  const { redactSecrets } = await import('../../src/util/redact.js');
  return { escape, redactSecrets };
}

describe('a secret cut or escaped by a surface', () => {
  it('leaves no part of itself in any escape, wherever the cut falls', async () => {
    const { escape, redactSecrets } = await withSecret();
    const surfaces: [string, (t: string, max: number) => string][] = [
      ['md', (t, m) => escape.md(t, m)],
      ['prose', (t, m) => escape.prose(t, m)],
      ['plain', (t, m) => escape.plain(t, m)],
      ['code', (t, m) => escape.code(t, m)],
      ['codeCell', (t, m) => escape.codeCell(t, m)],
      ['mermaidText', (t, m) => escape.mermaidText(t, m)],
    ];
    for (const [name, surface] of surfaces) {
      for (let before = 0; before < 60; before += 7) {
        const text = `denied: ${'x'.repeat(before)}${SECRET} end`;
        for (let max = 10; max <= text.length + 2; max += 3) {
          const shown = redactSecrets(surface(text, max));
          expect(pieces(shown), `${name} at ${max}: ${shown}`).toEqual([]);
        }
      }
    }
  });
});
