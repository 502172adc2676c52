import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { mayNameGpus } from '../kit/signal-scan/signals.js';
import { isTfvarsPath } from './module-scope.js';
import { isTfFile } from './tf-json.js';

/** OpenTofu's own configuration files: `main.tofu`, `main.tofu.json`. */
function isTofuFile(path: string): boolean {
  return path.endsWith('.tofu') || path.endsWith('.tofu.json');
}

/** The `.tf` file a `.tofu` file stands in for under OpenTofu: `main.tofu` → `main.tf`. */
const shadowedBy = (tofu: string): string => tofu.replace(/\.tofu(\.json)?$/, '.tf$1');

/**
 * A folder's listing as OpenTofu loads it: a `.tf` (`.tf.json`) file left out where a `.tofu`
 * (`.tofu.json`) file of the same name is there. Every reader that lists a folder sees one
 * module, never a block twice; openTofuErrors names the folder as not followed.
 */
export function withoutShadowedTf(paths: string[]): string[] {
  if (!paths.some(isTofuFile)) return paths;
  const present = new Set(paths);
  return paths.filter((p) => !(/\.tf(\.json)?$/.test(p) && present.has(p.replace(/\.tf(\.json)?$/, '.tofu$1'))));
}

interface TofuIo {
  list(dir: string): Promise<string[]>;
  base: { read(path: string): Promise<string | null> };
  head: { read(path: string): Promise<string | null> };
}

/**
 * An error on each changed Terraform file (configuration, `.tofu` or tfvars) of a folder where a
 * `.tofu` file and the `.tf` file of the same name are both there, at either side, and a file of
 * the folder names GPUs. OpenTofu then ignores the `.tf` file and Terraform the `.tofu` one: the
 * folder is two configurations, one per tool, and the readers (which take every `.tf` and
 * `.tofu` file of a folder as one module, OpenTofu's reading where no name is shared) could count
 * a pool twice or from the file the deploying tool skips. A folder that names no GPU is left alone.
 */
export async function openTofuErrors(changed: readonly string[], io: TofuIo): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const configuration = changed.filter((p) => isTfFile(p) || isTfvarsPath(p));
  for (const dir of [...new Set(configuration.map(dirOf))].sort()) {
    const here = (p: string) => dirOf(p) === dir;
    // The listing leaves shadowed `.tf` files out (withoutShadowedTf): a twin is found by reading it.
    const folder = new Set([...(await io.list(dir)).filter(here), ...changed.filter(here)]);
    const tofu = [...folder].filter(isTofuFile).sort();
    const twins = await Promise.all(
      tofu.map(async (p) => (await io.head.read(shadowedBy(p))) !== null || (await io.base.read(shadowedBy(p))) !== null),
    );
    const pairs = tofu.filter((_p, i) => twins[i] === true);
    if (pairs.length === 0) continue;
    for (const p of pairs) folder.add(shadowedBy(p));
    const texts = await Promise.all(
      [...folder].filter((p) => isTfFile(p) || isTfvarsPath(p)).flatMap((p) => [io.base.read(p), io.head.read(p)]),
    );
    if (!texts.some((t) => t !== null && mayNameGpus(t))) continue;
    const named = pairs.map((p) => `${p} (for ${shadowedBy(p)})`).join(', ');
    for (const path of configuration.filter(here))
      out.push(
        diagnostic(
          path,
          null,
          'error',
          `OpenTofu reads ${named} in place of the .tf file of the same name, which Terraform reads instead; which tool plans this folder is not known here, so its GPU capacity was not checked`,
        ),
      );
  }
  return out;
}
