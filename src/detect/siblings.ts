import { diagnostic } from '../domain/index.js';
import type { Diagnostic } from '../domain/index.js';
import { dirOf } from './kit/paths.js';
import { findOverlays, MAX_CANDIDATES, takenBesideIt } from './kustomize/overlay-discovery.js';
import type { CapacityParser } from './parser.js';
import type { Sides } from './side-readers.js';

/** Whether the parser reads this file with its directory's other files. */
export function takesSibling(parser: CapacityParser, path: string): boolean {
  return parser.acceptsSibling ? parser.acceptsSibling(path) : (parser.acceptsPath?.(path) ?? true);
}

// A JSON patch names neither kind nor object (its target is in the kustomization): its operations show it.
const JSON_PATCH_OP = /["']?\bop["']?[ \t]*:[ \t]*["']?(?:add|remove|replace|move|copy|test)\b/;
const GPU_WORD = /gpu|nvidia\.com\/mig-/i;
// Kustomize copies values out of objects (`replacements`, `vars`): a ConfigMap or Secret is their
// usual source, an object marked local-config exists only to be one, and a custom resource may hold any value.
const VALUE_SOURCE = /^kind:[ \t]*["']?(?:ConfigMap|Secret)["']?[ \t]*$|config\.kubernetes\.io\/local-config/m;
const API_VERSION = /^apiVersion:[ \t]*["']?([^"'\s#]+)/gm;
// Kubernetes' own APIs (core, apps, batch, …, *.k8s.io but the x-k8s.io projects): the objects a cluster runs.
const BUILT_IN = /^(?:v1|(?:apps|batch|autoscaling|policy|extensions)\/[a-z0-9]+|(?:[a-z0-9-]+\.)*(?<!x-)k8s\.io\/[a-z0-9]+)$/;

/** Whether an object of the text could be where a kustomization's `replacements` copy a value from. */
function mayBeValueSource(text: string): boolean {
  if (VALUE_SOURCE.test(text)) return true;
  return [...text.matchAll(API_VERSION)].some((m) => !BUILT_IN.test(m[1] ?? ''));
}

/**
 * Listing a directory is an API call where the reader is GitHub's, so a directory is listed only
 * where its other files could change what is found:
 * - a changed file is one the parser reads with its siblings (`acceptsSibling`, by default all
 *   it accepts): every file of a Terraform module, a kustomization;
 * - or a changed file that a sibling may take in (a kustomize patch or resource) could shape
 *   capacity: at either side, a parser's cheap check passes on it, it names a GPU resource, or
 *   it is a JSON patch.
 * - or a changed file holds an object a kustomization may copy values from into a capacity object
 *   (`replacements`, `vars`): a ConfigMap or Secret, an object marked local-config, or a custom
 *   resource (an API group not Kubernetes' own). Any object can be such a source, but reading every
 *   kustomization beside every changed Deployment or Service would cost each ordinary PR a read.
 * Any other changed file (a Deployment) is taken as no input to a capacity object: whatever kustomization
 * sits beside it renders the same capacity at both sides, but for inputs changed elsewhere (a
 * base's queue), which are read in their own directory.
 */
async function needsSiblings(
  sides: Sides,
  own: readonly string[],
  parser: CapacityParser,
  parsers: readonly CapacityParser[],
): Promise<boolean> {
  if (own.some((p) => takesSibling(parser, p))) return true;
  for (const path of own) {
    for (const text of [await sides.base.read(path), await sides.head.read(path)]) {
      if (text === null) continue;
      if (GPU_WORD.test(text) || JSON_PATCH_OP.test(text) || mayBeValueSource(text)) return true;
      if (parsers.some((p) => (p.acceptsPath?.(path) ?? true) && p.mightContain(path, text))) return true;
    }
  }
  return false;
}

/**
 * The files a set parser reads together for the changed files of `dir`: those changed files, and
 * the directory's other files the parser takes (`acceptsSibling`), when they could matter. For a
 * kustomize input (a parser naming `references`), also the overlays in the usual overlay folders
 * whose build reads a changed file: what the cluster runs is their render, not the base's.
 */
export async function setPaths(
  sides: Sides,
  dir: string,
  changed: readonly string[],
  parser: CapacityParser,
  parsers: readonly CapacityParser[],
): Promise<{ set: string[]; notes: Diagnostic[] }> {
  const own = changed.filter((p) => dirOf(p) === dir && (parser.acceptsPath?.(p) ?? true));
  const sibling = (p: string) => dirOf(p) === dir && takesSibling(parser, p);
  if (!(await needsSiblings(sides, own, parser, parsers))) return { set: [...own].sort(), notes: [] };
  const siblings = (await sides.list(dir)).filter(sibling);
  const overlays: string[] = [];
  const notes: Diagnostic[] = [];
  if (parser.references) {
    const io = {
      list: sides.list,
      ...(sides.dirs ? { dirs: sides.dirs } : {}),
      read: async (p: string) => (await sides.head.read(p)) ?? sides.base.read(p),
    };
    for (const path of own) {
      // A patch its own directory's kustomization applies is rendered by it, and a kustomization
      // renders itself, unless that is a Component: it is rendered only through the
      // kustomizations that include it.
      const beside = await takenBesideIt(path, io);
      if (beside.patched && !beside.component) continue;
      const found = await findOverlays(path, io, beside.component);
      overlays.push(...found.overlays);
      if (found.truncated) {
        notes.push(
          diagnostic(
            path,
            null,
            'info',
            `more than ${found.overlays.length} overlays include this file; it is rendered through the first ${found.overlays.length} (${found.overlays.join(', ')}) only`,
          ),
        );
      }
      if (found.unchecked > 0) {
        notes.push(
          diagnostic(
            path,
            null,
            'info',
            `${found.unchecked} more overlay kustomization${found.unchecked === 1 ? '' : 's'} near this file ${found.unchecked === 1 ? 'was' : 'were'} not looked into (at most ${MAX_CANDIDATES} are); an overlay among them that includes this file is not reported`,
          ),
        );
      }
    }
  }
  return { set: [...new Set([...own, ...siblings, ...overlays])].sort(), notes };
}
