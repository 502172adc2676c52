import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { withPlainBinary } from './yaml-binary.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** The documents as go-yaml hands them on: a `!!binary` scalar as the string of its bytes. */
function asApplied(text: string): unknown[] {
  return parseAllDocuments(text, { version: '1.1' }).map((d): unknown =>
    // A Buffer reaches the replacer as its toJSON form.
    (JSON.parse as (text: string) => unknown)(
      JSON.stringify(d.toJS(), (_, v: unknown) =>
        typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Buffer'
          ? Buffer.from((v as { data: number[] }).data).toString('utf8')
          : v,
      ),
    ),
  );
}

describe('withPlainBinary', () => {
  const spellings: [string, (v: string) => string][] = [
    ['plain', (v) => `!!binary ${b64(v)}`],
    ['quoted', (v) => `!!binary "${b64(v)}"`],
    ['verbatim tag', (v) => `!<tag:yaml.org,2002:binary> ${b64(v)}`],
    ['next line', (v) => `!!binary\n      ${b64(v)}`],
    ['block, wrapped', (v) => `!!binary |\n      ${b64(v).slice(0, 8)}\n      ${b64(v).slice(8)}`],
  ];
  const values = ['a2-highgpu-1g', 'p4d.24xlarge', 'nvidia.com/gpu', 'say "hi"\nand\tmore \\ end'];
  it.each(spellings)('decodes %s spellings line for line, as go-yaml reads them', (_, spell) => {
    for (const value of values) {
      const text = `apiVersion: v1\nkind: Thing\nspec:\n  list:\n    - ${spell(value)}\n  type: ${spell(value)}\n  after: 1\n`;
      const out = withPlainBinary('thing.yaml', text);
      expect(out).not.toContain('binary');
      expect(out.split('\n').length).toBe(text.split('\n').length);
      expect(out.split('\n').findIndex((l) => l.includes('after'))).toBe(text.split('\n').findIndex((l) => l.includes('after')));
      expect(asApplied(out)).toEqual(asApplied(text));
      expect(out).toContain(JSON.stringify(value).slice(0, -1));
    }
  });

  it('leaves text alone that has no such tag, is no YAML or does not parse', () => {
    expect(withPlainBinary('a.yaml', 'a: b\n')).toBe('a: b\n');
    expect(withPlainBinary('main.tf', `x = "!!binary ${b64('p4d.24xlarge')}"\n`)).toContain('!!binary');
    const broken = `a: !!binary ${b64('x')}\n b: [\n`;
    expect(withPlainBinary('a.yaml', broken)).toBe(broken);
  });
});
