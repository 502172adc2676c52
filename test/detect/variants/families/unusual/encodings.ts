import type { Tree } from '../../../real-fixtures.js';
import type { Rewrite } from '../../rewrite.js';
import type { Sides, VariantTree } from '../../variant-tree.js';
import { kubeDocuments } from '../../yaml-text.js';

/** Text as UTF-16 with its byte order mark, little- or big-endian. */
function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\ufeff${text.replace(/^\ufeff/, '')}`, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

/** Every file of Kubernetes objects, at both sides, stored as the bytes `encode` gives (the readers decode them). */
function storeKubeFiles(sides: Sides, encode: (text: string) => Uint8Array): Sides | null {
  const seen = { touched: false };
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = {};
    const bytes: Record<string, Uint8Array> = { ...tree.bytes };
    for (const [path, text] of Object.entries(tree.files)) {
      if (kubeDocuments(path, text) === null) files[path] = text;
      else {
        bytes[path] = encode(text);
        seen.touched = true;
      }
    }
    return { files, special: { ...tree.special }, bytes };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return seen.touched ? out : null;
}

/**
 * Every file of Kubernetes objects saved as UTF-16 with a byte order mark (as Windows editors
 * save it). `kubectl apply -f` reads it (cli-runtime's file visitor decodes a UTF-16 BOM); the
 * review must count it or say it cannot, never take it for binary and pass it.
 */
const utf16Files = (id: string, order: 'le' | 'be'): Rewrite => ({
  id,
  what: `every file of Kubernetes objects in UTF-16 ${order.toUpperCase()} with a byte order mark`,
  apply: (sides) => storeKubeFiles(sides, (text) => utf16(text, order)),
});

/**
 * A comment in Windows-1252 (`# Équipe GPU — coût`, bytes that are no UTF-8) at the top of every
 * file of Kubernetes objects: go-yaml refuses text that is not UTF-8, so the applier fails on the
 * file; counting it or saying it cannot be read are both honest, no change is not.
 */
const yamlWindows1252Comment: Rewrite = {
  id: 'yaml-windows-1252-comment',
  what: 'a Windows-1252 comment (bytes that are no UTF-8) at the top of every file of Kubernetes objects',
  apply: (sides) =>
    storeKubeFiles(sides, (text) => Buffer.concat([Buffer.from('# \xc9quipe GPU \x97 co\xfbt\n', 'latin1'), Buffer.from(text, 'utf8')])),
};

export const ENCODINGS: readonly Rewrite[] = [
  utf16Files('yaml-utf16le-bom', 'le'),
  utf16Files('yaml-utf16be-bom', 'be'),
  yamlWindows1252Comment,
];
