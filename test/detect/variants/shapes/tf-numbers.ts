import type { Tree } from '../../real-fixtures.js';
import type { Sides, VariantTree } from '../variant-tree.js';

/** Top-level blocks whose numbers must stay literals (a variable's default) or are not the pools'. */
const KEEP = /^(variable|output|terraform|provider)\b/;

/**
 * Each literal whole number of an attribute (`node_count = 2`) in a resource, data, module or
 * locals block of a `.tf` file, spelt by `spell` (the value and its number in the file). Heredoc
 * bodies are left alone: they are strings, whatever they hold.
 */
export function spellTfNumbers(text: string, spell: (value: number, n: number) => string): { text: string; values: number[] } {
  const values: number[] = [];
  let block: string | null = null;
  let depth = 0;
  let heredoc: string | null = null;
  const out = text.split('\n').map((line) => {
    if (heredoc !== null) {
      if (line.trim() === heredoc) heredoc = null;
      return line;
    }
    if (depth === 0) block = line.trimStart();
    const stripped = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
    const inside = depth > 0;
    depth += (stripped.match(/\{/g) ?? []).length - (stripped.match(/\}/g) ?? []).length;
    const marker = /<<-?\s*([A-Za-z_]\w*)\s*$/.exec(stripped);
    if (marker) heredoc = marker[1] ?? null;
    const m = /^(\s*[a-z_][a-z0-9_]*\s*=\s*)(\d+)(\s*(?:#.*)?)$/.exec(line);
    if (!inside || !m || (block !== null && KEEP.test(block))) return line;
    values.push(Number(m[2]));
    return `${m[1] ?? ''}${spell(Number(m[2]), values.length)}${m[3] ?? ''}`;
  });
  return { text: out.join('\n'), values };
}

/**
 * Every `.tf` file of both sides with its numbers spelt by `spell`, and `after` (given the values
 * and the file's path) appended; null when no file has a number to spell.
 */
export function mapTfNumbers(
  sides: Sides,
  spell: (value: number, n: number, path: string) => string,
  after?: (values: readonly number[], path: string) => string,
): Sides | null {
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      if (!path.endsWith('.tf')) {
        files[path] = text;
        continue;
      }
      const out = spellTfNumbers(text, (v, n) => spell(v, n, path));
      if (out.values.length > 0) seen.touched = true;
      files[path] = out.values.length > 0 && after ? `${out.text}\n${after(out.values, path)}` : out.text;
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}
