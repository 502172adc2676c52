import type { Document } from 'yaml';
import { docText } from '../yaml-text.js';

/** Objects' documents as the items of a list object whose own head is `head` (its `apiVersion` and `kind` lines), indented by `indent`. */
export function listOf(head: string, docs: readonly Document.Parsed[], indent = ''): string {
  const items = docs.map((d) =>
    docText(d)
      .replace(/\n+$/, '')
      .split('\n')
      .map((line, i) => (i === 0 ? `${indent}- ${line}` : line === '' ? '' : `${indent}  ${line}`))
      .join('\n'),
  );
  return `${head}${indent}items:\n${items.join('\n')}\n`;
}
