import { isScalar, visit } from 'yaml';
import type { Document } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapObjectFiles } from './yaml-objects.js';

/*
 * Names spelt so that no line holds them as written, which go-yaml decodes to the same strings:
 * escapes in double-quoted scalars (`"nvidia.com\u002Fgpu"`, `"g5\x2Exlarge"`) and `!!binary`
 * values (base64 of the text). A scan of the text for GPU names cannot see them; a parser does.
 */

/** The fields that tell what an object is: left as written, so only what the object holds is hidden. */
const IDENTITY = new Set(['apiVersion', 'kind']);

/** `text` as a double-quoted YAML scalar with its separators (or its first letter) written as escapes. */
export function escaped(text: string): string {
  let changed = false;
  let out = '';
  for (const ch of text) {
    if (ch === '/' || ch === '.' || ch === '-') {
      changed = true;
      out += ch === '/' ? '\\u002F' : ch === '.' ? '\\x2E' : '\\u002d';
    } else if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else out += ch;
  }
  if (changed) return `"${out}"`;
  const first = text.charCodeAt(0);
  return first < 0x80 ? `"\\x${first.toString(16).padStart(2, '0')}${out.slice(out[0] === '\\' ? 2 : 1)}"` : `"${out}"`;
}

/**
 * Each chosen one-line string scalar of the documents replaced by what `spell` writes for it; a
 * plain placeholder stands in while the document is printed, then gives way to the spelling.
 */
function respell(docs: Document.Parsed[], pick: 'keys' | 'values' | 'identity', spell: (text: string) => string): string | null {
  const spellings: string[] = [];
  const take = (node: unknown) => {
    if (!isScalar(node) || typeof node.value !== 'string') return;
    const text = node.value;
    if (text === '' || text === '<<' || text.includes('\n') || (pick !== 'identity' && IDENTITY.has(text))) return;
    spellings.push(spell(text));
    node.value = `gjspelt${spellings.length - 1}x`;
    node.type = 'PLAIN';
    delete node.tag;
  };
  for (const doc of docs)
    visit(doc, {
      Pair(_, pair) {
        const key = isScalar(pair.key) ? pair.key.value : null;
        if (pick === 'keys') take(pair.key);
        else if (pick === 'identity') {
          if (typeof key === 'string' && IDENTITY.has(key)) take(pair.value);
        } else if (typeof key !== 'string' || !IDENTITY.has(key)) take(pair.value);
      },
      Seq(_, seq) {
        if (pick === 'values') for (const item of seq.items) take(item);
      },
    });
  if (spellings.length === 0) return null;
  return docs
    .map(docText)
    .join('---\n')
    .replace(/gjspelt(\d+)x/g, (_, i: string) => spellings[Number(i)] ?? '');
}

export const yamlEscapedKeys: Rewrite = {
  id: 'yaml-escaped-keys',
  what: 'every key double-quoted with escapes, `"nvidia.com\\u002Fgpu"`',
  apply: (sides) => mapObjectFiles(sides, (docs) => respell(docs, 'keys', escaped)),
};

export const yamlEscapedValues: Rewrite = {
  id: 'yaml-escaped-values',
  what: 'every string value double-quoted with escapes, `"g5\\x2Exlarge"`',
  apply: (sides) => mapObjectFiles(sides, (docs) => respell(docs, 'values', escaped)),
};

/** go-yaml v2 decodes a `!!binary` scalar to the string of its bytes, which JSON then carries as that string. */
export const yamlBinaryValues: Rewrite = {
  id: 'yaml-binary-values',
  what: 'every string value `!!binary` (its text in base64)',
  apply: (sides) =>
    mapObjectFiles(sides, (docs) => respell(docs, 'values', (t) => `!!binary ${Buffer.from(t, 'utf8').toString('base64')}`)),
};

/** What an object is, hidden too: its `apiVersion` and `kind` written with escapes, which the API server reads as written plainly. */
export const yamlEscapedIdentity: Rewrite = {
  id: 'yaml-escaped-identity',
  what: 'every `apiVersion` and `kind` double-quoted with escapes, `"karpenter\x2Esh\u002Fv1"`',
  apply: (sides) => mapObjectFiles(sides, (docs) => respell(docs, 'identity', escaped)),
};
