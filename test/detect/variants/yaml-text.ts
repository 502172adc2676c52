import { isCollection, parseAllDocuments, visit } from 'yaml';
import type { Document } from 'yaml';

/** YAML files a rewrite may touch: Helm templates (not YAML until rendered) aside. */
function isYaml(path: string, text: string): boolean {
  return /\.ya?ml$/.test(path) && !text.includes('{{');
}

/** The file's documents, or null when any fails to parse or the file is no YAML of Kubernetes objects. */
export function kubeDocuments(path: string, text: string): Document.Parsed[] | null {
  if (!isYaml(path, text)) return null;
  const docs = parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.length === 0) return null;
  if (docs.some((d) => d.errors.length > 0)) return null;
  const objects = docs.filter((d) => d.contents !== null);
  if (objects.length === 0 || !objects.every(isKubeObject)) return null;
  return objects;
}

/** A Kubernetes object kubectl, kustomize, Helm or Argo CD would apply (eksctl reads its ClusterConfig itself). */
function isKubeObject(doc: Document.Parsed): boolean {
  const apiVersion: unknown = doc.get('apiVersion');
  const kind: unknown = doc.get('kind');
  return typeof apiVersion === 'string' && typeof kind === 'string' && !apiVersion.includes('eksctl.io') && !kind.endsWith('List');
}

/**
 * One document's text, without a leading document marker or the comment above it (which would
 * otherwise sit before the marker, and a marker inside a List item is no marker).
 */
export function docText(doc: Document.Parsed): string {
  doc.commentBefore = null;
  return doc.toString({ lineWidth: 0 }).replace(/^---\s*\n/, '');
}

/** Each document's text with every mapping and sequence in flow style (`{kind: Queue, spec: {…}}`, `[…]`). */
export function flowStyleTexts(docs: Document.Parsed[]): string[] {
  for (const doc of docs)
    visit(doc, {
      Node(_, node) {
        if (isCollection(node)) node.flow = true;
      },
    });
  return docs.map(docText);
}

/**
 * Each plain decimal integer value (`key: 8`, `- 8`) outside block scalars passed through `fn`,
 * which returns its new spelling; `keys` are the keys above it, by indentation, and `column` where
 * its key (or, in a list, the value itself) begins.
 */
export function mapPlainIntegers(
  text: string,
  fn: (value: number, keys: readonly string[], commented: boolean, column: number) => string | null,
): string {
  const lines = text.split('\n');
  let blockIndent: number | null = null;
  const stack: { indent: number; key: string }[] = [];
  return lines
    .map((line) => {
      const indent = line.length - line.trimStart().length;
      if (blockIndent !== null) {
        if (line.trim() === '' || indent > blockIndent) return line;
        blockIndent = null;
      }
      if (/^\s*(#|$)/.test(line) || /^(---|\.\.\.)/.test(line)) return line;
      while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
      const keyMatch = /^(\s*(?:- )*)([\w./-]+|"[^"]*"|'[^']*'):(\s+)(.*?)(\s+#.*)?$/.exec(line);
      if (keyMatch) {
        const [, lead = '', key = '', space = '', value = '', comment = ''] = keyMatch;
        const keyIndent = lead.length;
        if (/^[|>][-+0-9]*$/.test(value)) {
          blockIndent = indent;
          return line;
        }
        const keys = [...stack.map((s) => s.key), key.replace(/^["']|["']$/g, '')];
        if (/^(0|[1-9][0-9]*)$/.test(value)) {
          const out = fn(Number(value), keys, comment !== '', keyIndent);
          if (out !== null) return `${lead}${key}:${space}${out}${comment}`;
        }
        if (value === '') stack.push({ indent: keyIndent, key: key.replace(/^["']|["']$/g, '') });
        return line;
      }
      const item = /^(\s*- )(0|[1-9][0-9]*)(\s+#.*)?$/.exec(line);
      if (item) {
        const out = fn(
          Number(item[2]),
          stack.map((s) => s.key),
          item[3] !== undefined,
          (item[1] ?? '').length,
        );
        if (out !== null) return `${item[1] ?? ''}${out}${item[3] ?? ''}`;
      }
      return line;
    })
    .join('\n');
}
