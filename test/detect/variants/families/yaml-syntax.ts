import { isMap, isScalar, isSeq, visit } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { mapKubeFiles } from '../shapes/kube-files.js';
import { docText, flowStyleTexts } from '../yaml-text.js';

/**
 * Every string value tagged `!!str`, every mapping `!!map` and every sequence `!!seq`: the core
 * schema's own tags, which go-yaml resolves to what the untagged nodes are. Numbers are left
 * untagged (a quota stays the number it was).
 */
export const yamlExplicitTags: Rewrite = {
  id: 'yaml-explicit-tags',
  what: 'every string `!!str`, mapping `!!map` and list `!!seq`',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const v = pair.value;
            if (isScalar(v) && typeof v.value === 'string' && v.tag === undefined) v.tag = 'tag:yaml.org,2002:str';
          },
          Node(_, node) {
            if (isMap(node) && node.tag === undefined) node.tag = 'tag:yaml.org,2002:map';
            else if (isSeq(node) && node.tag === undefined) node.tag = 'tag:yaml.org,2002:seq';
          },
        });
      return docs.map(docText).join('---\n');
    }),
};

/** Every key tagged `!!str` (`!!str spec:`), which is the string key it was; a merge key `<<` is left a merge key. */
export const yamlTaggedKeys: Rewrite = {
  id: 'yaml-tagged-keys',
  what: 'every key tagged `!!str`',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs)
        visit(doc, {
          Pair(_, pair) {
            const k = pair.key;
            if (isScalar(k) && typeof k.value === 'string' && k.value !== '<<' && k.tag === undefined) k.tag = 'tag:yaml.org,2002:str';
          },
        });
      return docs.map(docText).join('---\n');
    }),
};

/** A block mapping's `key: value` line, its value on the line (no block scalar, nothing carried to the next line). */
const PAIR = /^(\s*)((?:- )?)([A-Za-z_][\w./-]*|"[^"]*"|'[^']*'):( +)([^|>\s&*!].*)$/;

/**
 * Every key of a block mapping whose value sits on its line written with the explicit-key syntax
 * (`? key` and `: value` on the next line), which YAML reads as the same pair; keys of values
 * that span lines, and lines in block scalars, are left.
 */
export const yamlComplexKeys: Rewrite = {
  id: 'yaml-complex-keys',
  what: 'every one-line pair in explicit-key syntax, `? key` / `: value`',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => {
      const lines = text.split('\n');
      let block: number | null = null;
      const out = lines.map((line, i) => {
        const indent = line.length - line.trimStart().length;
        if (block !== null) {
          if (line.trim() === '' || indent > block) return line;
          block = null;
        }
        // A block scalar opens after a key (`run: |`) or as a list item (`- |`).
        if (/(?::|^\s*-)\s+[|>][-+0-9]*\s*(#.*)?$/.test(line)) {
          block = indent;
          return line;
        }
        const m = PAIR.exec(line);
        if (!m) return line;
        const [, lead = '', dash = '', key = '', , value = ''] = m;
        // A plain value continued on the next, deeper line, or an open flow collection or quote, is left.
        const next = lines[i + 1] ?? '';
        const nextIndent = next.length - next.trimStart().length;
        if (next.trim() !== '' && nextIndent > lead.length + dash.length && !next.trimStart().startsWith('- ')) return line;
        if (/^["'[{]/.test(value) && !/["'\]}]\s*(#.*)?$/.test(value)) return line;
        const at = `${lead}${dash === '' ? '' : '  '}`;
        return `${lead}${dash}? ${key}\n${at}: ${value}`;
      });
      return out.join('\n');
    }),
};

/** Separators outside quoted strings in flow text (`, `, `: `, `{ `, `[ `) given a tab. */
function tabbed(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote !== null) {
      out += ch;
      if (ch === '\\' && quote === '"') out += text[++i] ?? '';
      else if (ch === quote) quote = null;
      continue;
    }
    // A quote opens a string only where a token starts: `don't` in a plain scalar is no quote.
    if ((ch === '"' || ch === "'") && /^$|[\s{[,:]$/.test(text[i - 1] ?? '')) quote = ch;
    if ((ch === ',' || ch === ':' || ch === '{' || ch === '[') && text[i + 1] === ' ') {
      out += `${ch}\t`;
      i++;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Every object in flow style with tabs, not spaces, after its separators: YAML takes a tab as white space in flow. */
export const yamlFlowTabs: Rewrite = {
  id: 'yaml-flow-tabs',
  what: 'every object in flow style, a tab after each `,` and `:`',
  apply: (sides) => mapKubeFiles(sides, (docs) => flowStyleTexts(docs).map(tabbed).join('---\n')),
};
