import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import type { Unfollowed } from '../parser.js';
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

/** The `.tofu` file that would stand in for a `.tf` file: `main.tf` → `main.tofu`. */
const tofuTwin = (tf: string): string => tf.replace(/\.tf(\.json)?$/, '.tofu$1');

/**
 * The one rule of OpenTofu's loading every reader goes by: the files of a set OpenTofu does not
 * load, `x.tf` (`x.tf.json`) where the same folder holds `x.tofu` (`x.tofu.json`), which OpenTofu
 * reads in its place. Terraform reads `x.tf` and ignores `x.tofu`; the review reads a folder as
 * OpenTofu does, and says so of a changed shadowed file (shadowedNotes, openTofuErrors).
 */
export function shadowedByTofu(paths: readonly string[]): Set<string> {
  const all = new Set(paths);
  return new Set(paths.filter((p) => /\.tf(?:\.json)?$/.test(p) && all.has(tofuTwin(p))));
}

/**
 * A folder's listing as OpenTofu loads it (shadowedByTofu): every reader that lists a folder sees
 * one module, never a block twice; openTofuErrors names the folder as not followed.
 */
export function withoutShadowedTf(paths: string[]): string[] {
  if (!paths.some(isTofuFile)) return paths;
  const shadowed = shadowedByTofu(paths);
  return paths.filter((p) => !shadowed.has(p));
}

/**
 * A `.tf` file of a set that its `.tofu` twin shadows: Terraform applies it, OpenTofu does not,
 * and the review reads the folder as OpenTofu does. Fingerprinted by its text, so an unchanged one
 * read beside a changed sibling holds nothing up; a changed one is not followed.
 */
export function shadowedNotes(files: readonly { path: string; text: string }[]): Unfollowed[] {
  const shadowed = shadowedByTofu(files.map((f) => f.path));
  return files
    .filter((f) => shadowed.has(f.path))
    .map((f) => ({
      file: f.path,
      line: null,
      reason: 'unreadable' as const,
      subject: f.path,
      needs: `OpenTofu reads ${tofuTwin(f.path)} in its place, Terraform reads this file: the review reads the folder as OpenTofu does`,
      fingerprint: f.text,
    }));
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
