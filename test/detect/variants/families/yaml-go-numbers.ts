import type { Rewrite } from '../rewrite.js';
import { mapPlainIntegers } from '../yaml-text.js';
import { mapObjectFiles } from './yaml-objects.js';

/**
 * Each whole number of the objects (their metadata aside) spelt by `spell`, when go-yaml v2 reads
 * the spelling as the same number (resolve.go: `strconv.ParseInt(s, 0, 64)` once underscores are
 * removed, then `strconv.ParseFloat` for YAML's float spelling) and JSON carries it as that number.
 */
const goNumbers = (id: string, what: string, spell: (v: number, random: () => number) => string): Rewrite => ({
  id,
  what,
  apply: (sides, _c, random) =>
    mapObjectFiles(sides, (_docs, _path, text) =>
      mapPlainIntegers(text, (v, keys) => (keys[0] === 'metadata' || v === 0 ? null : spell(v, random))),
    ),
});

/** YAML 1.2's `0o` octal and go's `0b` binary, which YAML 1.1 schemas read as strings or as other numbers. */
export const yamlGoPrefixes = goNumbers('yaml-go-prefixes', 'every whole number `0o20` or `0b10000`, as go-yaml reads them', (v, random) =>
  random() < 0.5 ? `0o${v.toString(8)}` : `0b${v.toString(2)}`,
);

/** A float with an exponent and no fraction left (`1.6e1` is 16): JSON writes the whole number. */
export const yamlGoExponent = goNumbers('yaml-go-exponent', 'every whole number a float with an exponent, `1.6e1`', (v) => {
  const digits = String(v);
  const mantissa = digits.length === 1 ? digits : `${digits[0] ?? ''}.${digits.slice(1)}`;
  return `${mantissa.replace(/\.?0+$/, '') || '0'}e${digits.length - 1}`;
});
