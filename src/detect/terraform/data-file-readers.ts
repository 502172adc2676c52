import { dirOf } from '../kit/paths.js';
import type { CapacityParser } from '../parser.js';
import type { Sides } from '../side-readers.js';

/** How far above a changed file the configuration that reads it is looked for: beside it, or a folder or two up (`data/`, `config/pools/`). */
const MAX_UP = 2;
/** Terraform files read to find it, per review: an API call each for the App. */
const MAX_READS = 64;

/**
 * Changed files the Terraform parser does not take but a configuration reads through `file()` or
 * `templatefile()` (`yamldecode(file("${path.module}/pools.yaml")).gpu.max`), by the folder that
 * reads them. A data file's numbers are a pool's numbers there; read alone it names no GPU, so
 * without its folder it would pass as no change. The folder is then read at both sides as if its
 * own files had changed (its references read with it, referenced-files.ts). Only the pools'
 * parser: the manifest reader has its templates followed already (template-follow.ts).
 */
export async function foldersReadingData(changed: readonly string[], parser: CapacityParser, sides: Sides): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (parser.id !== 'terraform' || parser.references === undefined) return out;
  const references = parser.references.bind(parser);
  const accepts = (p: string) => parser.acceptsPath?.(p) ?? true;
  const texts = new Map<string, Promise<string | null>>();
  let reads = MAX_READS;
  const textOf = (p: string): Promise<string | null> | null => {
    const known = texts.get(p);
    if (known) return known;
    if (--reads < 0) return null;
    const read = sides.head.read(p).then(async (t) => t ?? (await sides.base.read(p)));
    texts.set(p, read);
    return read;
  };
  for (const path of changed) {
    if (accepts(path)) continue;
    for (let up = 0, dir = dirOf(path); up <= MAX_UP; up++, dir = dirOf(dir)) {
      for (const file of (await sides.list(dir)).filter((p) => dirOf(p) === dir && accepts(p))) {
        const text = await textOf(file);
        if (text === null || !references({ path: file, text }).includes(path)) continue;
        out.set(dir, [...new Set([...(out.get(dir) ?? []), path])]);
      }
      if (dir === '') break;
    }
  }
  return out;
}
