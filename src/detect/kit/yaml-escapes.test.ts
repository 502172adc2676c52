import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { withPlainEscapes } from './yaml-escapes.js';

const read = (text: string) => parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS() as unknown);

describe('withPlainEscapes', () => {
  it('writes the escapes of double-quoted scalars as their characters, line for line', () => {
    const text = 'apiVersion: "kueue\\x2Ex\\u002dk8s.io/v1beta2"\nkind: "\\x43lusterQueue"\nspec:\n  "nvidia.com\\u002Fgpu": 8\n';
    const out = withPlainEscapes('q.yaml', text);
    expect(out).toBe('apiVersion: "kueue.x-k8s.io/v1beta2"\nkind: "ClusterQueue"\nspec:\n  "nvidia.com/gpu": 8\n');
    expect(read(out)).toEqual(read(text));
  });

  it('keeps what would change the scalar or its lines, and what is not double-quoted', () => {
    const text = `a: "q\\x22 b\\x5C \\x0A \\u2028"\nb: 'g5\\x2Exlarge'\nc: g5\\x2Exlarge # "\\x41"\nd: |\n  "\\x41"\n`;
    const out = withPlainEscapes('x.yaml', text);
    expect(out).toBe(text);
    expect(read(out)).toEqual(read(text));
  });

  it('leaves other files, and YAML that does not parse, as they are', () => {
    expect(withPlainEscapes('main.tf', 'a = "\\x41"')).toBe('a = "\\x41"');
    expect(withPlainEscapes('x.yaml', 'a: "\\x41"\n b: [')).toBe('a: "\\x41"\n b: [');
  });
});
