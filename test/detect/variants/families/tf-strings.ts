import type { Rewrite } from '../rewrite.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import type { Tree } from '../../real-fixtures.js';

/** Blocks whose strings must stay literals (a variable's default, a module's source) or that plan nothing. */
const KEEP = /^(variable|output|terraform|provider|moved|import|removed|check)\b/;
/** Attributes that take a literal string only, or name what is not a value. */
const LITERAL_ONLY = new Set(['source', 'version', 'provider']);

/**
 * Each attribute set to a plain quoted string (no template, no escape) in a resource, data, module
 * or locals block of a `.tf` file, spelt by `spell` (the string and the line's indentation); heredoc
 * bodies are left alone.
 */
function spellTfStrings(text: string, spell: (value: string, indent: string) => string): { text: string; n: number } {
  let n = 0;
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
    const m = /^(\s*)([a-z_][a-z0-9_]*)(\s*=\s*)"([^"\\$%]+)"(\s*(?:#.*)?)$/.exec(line);
    if (!inside || !m || (block !== null && KEEP.test(block)) || LITERAL_ONLY.has(m[2] ?? '')) return line;
    const [, indent = '', key = '', eq = '', value = '', rest = ''] = m;
    if (value.trim() !== value) return line;
    n++;
    return `${indent}${key}${eq}${spell(value, indent)}${rest}`;
  });
  return { text: out.join('\n'), n };
}

export function mapTfStrings(sides: Sides, spell: (value: string, indent: string) => string): Sides | null {
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    for (const [path, text] of Object.entries(tree.files)) {
      if (!path.endsWith('.tf')) {
        files[path] = text;
        continue;
      }
      const out = spellTfStrings(text, spell);
      if (out.n > 0) seen.touched = true;
      files[path] = out.text;
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}

const strings = (id: string, what: string, spell: (value: string, indent: string) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfStrings(sides, spell),
});

/**
 * Each plain string of the pools (a machine type, an accelerator, a name) written another way that
 * Terraform evaluates to the same string: a heredoc with its line break cut by `chomp`, the string
 * joined from two halves (so no line holds the whole GPU name), or interpolated as a template.
 */
export const TF_STRINGS: readonly Rewrite[] = [
  strings(
    'tf-heredoc-strings',
    'each Terraform string `chomp(<<-EOT … EOT)`',
    (v, indent) => `chomp(<<-EOT\n${indent}  ${v}\n${indent}  EOT\n${indent})`,
  ),
  strings('tf-joined-strings', 'each Terraform string `join("", ["a2-hig", "hgpu-1g"])`, split in two', (v) => {
    const half = Math.ceil(v.length / 2);
    return v.length < 2 ? `"${v}"` : `join("", ["${v.slice(0, half)}", "${v.slice(half)}"])`;
  }),
  strings('tf-template-strings', 'each Terraform string a template of a string `"${"a2-highgpu-1g"}"`', (v) => `"\${"${v}"}"`),
];
