import { parseAllDocuments } from 'yaml';
import type { Document } from 'yaml';
import { mapFiles } from '../variant-tree.js';
import type { Sides } from '../variant-tree.js';

/**
 * The documents of a YAML file of objects some applier reads (Kubernetes objects, and eksctl's
 * ClusterConfig, which eksctl decodes with the same sigs.k8s.io/yaml), or null: a Helm template,
 * a file that does not parse, a document that is no object with `apiVersion` and `kind`.
 */
export function objectDocuments(path: string, text: string): Document.Parsed[] | null {
  if (!/\.ya?ml$/i.test(path) || text.includes('{{')) return null;
  const docs = parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => d.errors.length > 0)) return null;
  const objects = docs.filter((d) => d.contents !== null);
  const isObject = (d: Document.Parsed) => typeof d.get('apiVersion') === 'string' && typeof d.get('kind') === 'string';
  return objects.length > 0 && objects.every(isObject) ? objects : null;
}

/** Every file of objects, at both sides, rewritten by `fn` (null or the same text: left as it is). */
export function mapObjectFiles(sides: Sides, fn: (docs: Document.Parsed[], path: string, text: string) => string | null): Sides | null {
  return mapFiles(sides, (path, text) => {
    const docs = objectDocuments(path, text);
    if (docs === null) return null;
    const out = fn(docs, path, text);
    return out === null || out === text ? null : { [path]: out };
  });
}
