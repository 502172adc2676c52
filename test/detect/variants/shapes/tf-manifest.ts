import { parseAllDocuments } from 'yaml';
import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { docText, kubeDocuments } from '../yaml-text.js';
import { baseName, dirOf, freeKubeFiles, join } from './kube-files.js';

/** Text HCL would read as a template sequence (`${`, `%{`) escaped, so it stays the text. */
const literal = (text: string) => text.replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');

/** An object as an HCL object constructor: JSON is one (`"key": value`), its strings made template-free. */
function hclObject(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((l, i) => (i === 0 ? l : `  ${l}`))
    .join('\n')
    .replace(/"(?:[^"\\]|\\.)*"/g, literal);
}

function heredoc(text: string): string {
  return `<<-YAML\n${literal(text)
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n  YAML`;
}

type Spell = (label: string, object: unknown, text: string) => string;

/**
 * The changed files of Kubernetes objects that nothing names, at both sides, as a Terraform file
 * of manifest resources, one per object, in the spelling `spell` makes; labelled `gj_1`, … or,
 * `named`, after the file (`gpu_flavor_1`), as people name them.
 */
function asManifests(sides: Sides, spell: Spell, named = false): Sides | null {
  const paths = freeKubeFiles(sides);
  if (paths.length === 0) return null;
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = { ...tree.files };
    for (const path of paths) {
      const text = files[path];
      delete files[path];
      if (text === undefined) continue;
      const docs = kubeDocuments(path, text) ?? [];
      // The object as go-yaml reads it (YAML 1.1, merge keys), which is what Terraform is to plan.
      const objects = parseAllDocuments(text, { version: '1.1', merge: true })
        .map((d) => d.toJS({ maxAliasCount: -1 }) as unknown)
        .filter((o) => o !== null);
      const stem = baseName(path)
        .replace(/\.ya?ml$/, '')
        .replace(/\W/g, '_');
      files[join(dirOf(path), `gj-${stem}.tf`)] = objects
        .map((o, i) => spell(named ? `${/^\d/.test(stem) ? '_' : ''}${stem}_${i + 1}` : `gj_${i + 1}`, o, docs[i] ? docText(docs[i]) : ''))
        .join('\n');
    }
    return { files, special: { ...tree.special } };
  };
  return { base: side(sides.base), head: side(sides.head) };
}

const manifest = (id: string, what: string, spell: Spell, named = false): Rewrite => ({
  id,
  what,
  apply: (sides) => asManifests(sides, spell, named),
});

/** The four ways Terraform declares a Kubernetes object, each planning the object as written, and labels named after the file. */
export const TF_MANIFESTS: readonly Rewrite[] = [
  manifest(
    'tf-manifest-object',
    'the changed objects as `kubernetes_manifest` HCL objects',
    (label, object) => `resource "kubernetes_manifest" "${label}" {\n  manifest = ${hclObject(object)}\n}\n`,
  ),
  manifest(
    'tf-manifest-yamlencode',
    'the changed objects as `kubectl_manifest` `yamlencode({…})`',
    (label, object) => `resource "kubectl_manifest" "${label}" {\n  yaml_body = yamlencode(${hclObject(object)})\n}\n`,
  ),
  manifest(
    'tf-manifest-heredoc',
    'the changed objects as `kubectl_manifest` YAML heredocs',
    (label, _o, text) => `resource "kubectl_manifest" "${label}" {\n  yaml_body = ${heredoc(text)}\n}\n`,
  ),
  manifest(
    'tf-manifest-named',
    'the changed objects as `kubectl_manifest` YAML heredocs labelled after their file',
    (label, _o, text) => `resource "kubectl_manifest" "${label}" {\n  yaml_body = ${heredoc(text)}\n}\n`,
    true,
  ),
  // A heredoc's closing marker stands alone on its line: the call's `)` goes on the next.
  manifest(
    'tf-manifest-yamldecode',
    'the changed objects as `kubernetes_manifest` `yamldecode(<<-YAML …)`',
    (label, _o, text) => `resource "kubernetes_manifest" "${label}" {\n  manifest = yamldecode(${heredoc(text)}\n  )\n}\n`,
  ),
];
