import type { Rewrite } from '../rewrite.js';
import { mapTfStrings } from './tf-strings.js';

/** `value` with its separators (or its first letter) as HCL `\uNNNN` escapes. */
function hclEscaped(value: string): string {
  const out = value.replace(/[./-]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return out !== value ? out : `\\u${value.charCodeAt(0).toString(16).padStart(4, '0')}${value.slice(1)}`;
}

const hidden = (id: string, what: string, spell: (value: string) => string): Rewrite => ({
  id,
  what,
  apply: (sides) => mapTfStrings(sides, spell),
});

/**
 * Each plain string of the pools (a machine type, an accelerator, a name) spelt so that no line
 * holds it as written, which Terraform evaluates to the same string before it plans: HCL escapes,
 * base64 decoded, a character put back by `replace`. A scan of the text for GPU names cannot see
 * them; a reader must evaluate them, or say it could not.
 */
export const TF_HIDDEN_STRINGS: readonly Rewrite[] = [
  hidden('tf-escaped-strings', 'each Terraform string with `\\u` escapes, `"g5\\u002exlarge"`', (v) => `"${hclEscaped(v)}"`),
  hidden(
    'tf-base64-strings',
    'each Terraform string `base64decode("ZzUueGxhcmdl")`',
    (v) => `base64decode("${Buffer.from(v, 'utf8').toString('base64')}")`,
  ),
  hidden('tf-replace-strings', 'each Terraform string with its first letter put back by `replace("#5.xlarge", "#", "g")`', (v) =>
    /^[A-Za-z0-9]/.test(v) && !v.includes('#') ? `replace("#${v.slice(1)}", "#", "${v[0] ?? ''}")` : `"${v}"`,
  ),
];
