import { mapTfLines } from '../tf-lines.js';
import { mapFiles, type Sides } from '../variant-tree.js';

/** Top-level blocks whose numbers must stay literals (a variable's default) or are not the pools'. */
const KEEP = /^(variable|output|terraform|provider)\b/;

/**
 * Each literal whole number of an attribute (`node_count = 2`) in a resource, data, module or
 * locals block of a `.tf` file, spelt by `spell` (the value and its number in the file). Heredoc
 * bodies are left alone: they are strings, whatever they hold.
 */
export function spellTfNumbers(text: string, spell: (value: number, n: number) => string): { text: string; values: number[] } {
  const values: number[] = [];
  const out = mapTfLines(text, (line, { block, inside }) => {
    const m = /^(\s*[a-z_][a-z0-9_]*\s*=\s*)(\d+)(\s*(?:#.*)?)$/.exec(line);
    if (!inside || !m || (block !== null && KEEP.test(block))) return line;
    values.push(Number(m[2]));
    return `${m[1] ?? ''}${spell(Number(m[2]), values.length)}${m[3] ?? ''}`;
  });
  return { text: out, values };
}

/**
 * Every `.tf` file of both sides with its numbers spelt by `spell`, and `after` (given the values
 * and the file's path) appended; null when no file has a number to spell.
 */
export const mapTfNumbers = (
  sides: Sides,
  spell: (value: number, n: number, path: string) => string,
  after?: (values: readonly number[], path: string) => string,
): Sides | null =>
  mapFiles(sides, (path, text) => {
    if (!path.endsWith('.tf')) return null;
    const out = spellTfNumbers(text, (v, n) => spell(v, n, path));
    if (out.values.length === 0) return null;
    return { [path]: after ? `${out.text}\n${after(out.values, path)}` : out.text };
  });
