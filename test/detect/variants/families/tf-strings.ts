import type { Rewrite } from '../rewrite.js';
import { mapTfLines } from '../tf-lines.js';
import { mapFiles, type Sides } from '../variant-tree.js';

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
  const out = mapTfLines(text, (line, { block, inside }) => {
    const m = /^(\s*)([a-z_][a-z0-9_]*)(\s*=\s*)"([^"\\$%]+)"(\s*(?:#.*)?)$/.exec(line);
    if (!inside || !m || (block !== null && KEEP.test(block)) || LITERAL_ONLY.has(m[2] ?? '')) return line;
    const [, indent = '', key = '', eq = '', value = '', rest = ''] = m;
    if (value.trim() !== value) return line;
    n++;
    return `${indent}${key}${eq}${spell(value, indent)}${rest}`;
  });
  return { text: out, n };
}

/** Every `.tf` file of both sides with its strings spelt by `spell`; null when no file has one. */
export const mapTfStrings = (sides: Sides, spell: (value: string, indent: string) => string): Sides | null =>
  mapFiles(sides, (path, text) => {
    if (!path.endsWith('.tf')) return null;
    const out = spellTfStrings(text, spell);
    return out.n > 0 ? { [path]: out.text } : null;
  });

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
