import { dirOf } from './kit/paths.js';
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
const COPIES_VALUES = /^(?:replacements|vars):/m;
const KUSTOMIZATION = /(?:^|\/)(?:kustomization\.ya?ml|Kustomization)$/;

/**
 * Listing a directory is an API call where the reader is GitHub's, so a directory is listed only
 * where its other files could change what is found:
 * - a changed file is one the parser reads with its siblings (`acceptsSibling`, by default all
 *   it accepts): every file of a Terraform module, a kustomization;
 * - or a changed file that a sibling may take in (a kustomize patch or resource) could shape
 *   capacity: at either side, a parser's cheap check passes on it, it names a GPU resource, or
 *   it is a JSON patch.
 * - or a changed file may be a source a kustomization copies values from into a capacity object
 *   (`replacements`, `vars`): it holds a ConfigMap or Secret, or a kustomization beside it copies.
 * Any other changed file (a Deployment) is no input to a capacity object: whatever kustomization
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
  return parser.references !== undefined && copiesBeside(sides, own);
}

/** Whether a kustomization in a changed file's directory copies values between objects, at either side. */
async function copiesBeside(sides: Sides, own: readonly string[]): Promise<boolean> {
  for (const dir of new Set(own.map(dirOf))) {
    for (const path of (await sides.list(dir)).filter((p) => KUSTOMIZATION.test(p))) {
      for (const text of [await sides.base.read(path), await sides.head.read(path)]) {
        if (text !== null && COPIES_VALUES.test(text)) return true;
      }
    }
  }
  return false;
}
