import type { CapacityParser } from './parser.js';
import type { Sides } from './side-readers.js';

/** Whether the parser reads this file with its directory's other files. */
export function takesSibling(parser: CapacityParser, path: string): boolean {
  return parser.acceptsSibling ? parser.acceptsSibling(path) : (parser.acceptsPath?.(path) ?? true);
}

// A JSON patch names neither kind nor object (its target is in the kustomization): its operations show it.
const JSON_PATCH_OP = /["']?\bop["']?[ \t]*:[ \t]*["']?(?:add|remove|replace|move|copy|test)\b/;
const GPU_WORD = /gpu|nvidia\.com\/mig-/i;
// Kustomize copies values out of objects (`replacements`, `vars`): a ConfigMap or Secret is their usual source.
const VALUE_SOURCE = /^kind:[ \t]*["']?(?:ConfigMap|Secret)["']?[ \t]*$/m;

/**
 * Listing a directory is an API call where the reader is GitHub's, so a directory is listed only
 * where its other files could change what is found:
 * - a changed file is one the parser reads with its siblings (`acceptsSibling`, by default all
 *   it accepts): every file of a Terraform module, a kustomization;
 * - or a changed file that a sibling may take in (a kustomize patch or resource) could shape
 *   capacity: at either side, a parser's cheap check passes on it, it names a GPU resource, or
 *   it is a JSON patch.
 * - or a changed file holds a ConfigMap or Secret, the usual source a kustomization copies values
 *   from into a capacity object (`replacements`, `vars`). Any object can be such a source, but
 *   reading every kustomization beside every changed manifest would cost each ordinary PR a read.
 * Any other changed file (a Deployment) is taken as no input to a capacity object: whatever kustomization
 * sits beside it renders the same capacity at both sides, but for inputs changed elsewhere (a
 * base's queue), which are read in their own directory.
 */
export async function needsSiblings(
  sides: Sides,
  own: readonly string[],
  parser: CapacityParser,
  parsers: readonly CapacityParser[],
): Promise<boolean> {
  if (own.some((p) => takesSibling(parser, p))) return true;
  for (const path of own) {
    for (const text of [await sides.base.read(path), await sides.head.read(path)]) {
      if (text === null) continue;
      if (GPU_WORD.test(text) || JSON_PATCH_OP.test(text) || VALUE_SOURCE.test(text)) return true;
      if (parsers.some((p) => (p.acceptsPath?.(path) ?? true) && p.mightContain(path, text))) return true;
    }
  }
  return false;
}
