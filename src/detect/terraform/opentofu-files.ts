import { diagnostic } from '../../domain/index.js';
import type { ChangeSet, Diagnostic, TreeReader } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
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
 * OpenTofu does, and as Terraform does (asTerraformReads) where the pull request changes a folder
 * of twins, and names the twins when the two readings differ (twinErrors).
 */
export function shadowedByTofu(paths: readonly string[]): Set<string> {
  const all = new Set(paths);
  return new Set(paths.filter((p) => /\.tf(?:\.json)?$/.test(p) && all.has(tofuTwin(p))));
}

/**
 * A folder's listing as OpenTofu loads it (shadowedByTofu): every reader that lists a folder sees
 * one module, never a block twice; the folder is read as Terraform reads it too (twinFolders).
 */
export function withoutShadowedTf(paths: string[]): string[] {
  if (!paths.some(isTofuFile)) return paths;
  const shadowed = shadowedByTofu(paths);
  return paths.filter((p) => !shadowed.has(p));
}

interface TofuIo {
  list(dir: string): Promise<string[]>;
  base: { read(path: string): Promise<string | null> };
  head: { read(path: string): Promise<string | null> };
}

/** A folder of changed configuration holding `x.tofu` beside `x.tf`, at either side: its twins. */
export interface TwinFolder {
  dir: string;
  /** Each `.tofu` (`.tofu.json`) file with a `.tf` twin, sorted. */
  tofu: string[];
}

/**
 * The folders of the changed configuration files (`.tf`, `.tofu`, tfvars) where a `.tofu` file
 * and the `.tf` file of the same name are both there at either side. OpenTofu then ignores the
 * `.tf` file and Terraform the `.tofu` one: the folder is two configurations, one per tool, and
 * which tool plans it is not known here, so detection reads it both ways (detect-changes.ts).
 */
export async function twinFolders(changed: readonly string[], io: TofuIo): Promise<TwinFolder[]> {
  const out: TwinFolder[] = [];
  const configuration = changed.filter((p) => isTfFile(p) || isTfvarsPath(p));
  for (const dir of [...new Set(configuration.map(dirOf))].sort()) {
    const here = (p: string) => dirOf(p) === dir;
    const folder = new Set([...(await io.list(dir)).filter(here), ...changed.filter(here)]);
    const tofu = [...folder].filter(isTofuFile).sort();
    const twins = await Promise.all(
      tofu.map(async (p) => (await io.head.read(shadowedBy(p))) !== null || (await io.base.read(shadowedBy(p))) !== null),
    );
    const pairs = tofu.filter((_p, i) => twins[i] === true);
    if (pairs.length > 0) out.push({ dir, tofu: pairs });
  }
  return out;
}

/**
 * An error on each changed configuration file of the folders whose two readings (as OpenTofu
 * reads them, as Terraform does) plan different GPU capacity: which one is applied is not known.
 */
export function twinErrors(changed: readonly string[], twins: readonly TwinFolder[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { dir, tofu } of twins) {
    const named = tofu.map((p) => `${p} (for ${shadowedBy(p)})`).join(', ');
    for (const path of changed.filter((p) => dirOf(p) === dir && (isTfFile(p) || isTfvarsPath(p))))
      out.push(
        diagnostic(
          path,
          null,
          'error',
          `OpenTofu reads ${named} in place of the .tf file of the same name, which Terraform reads instead, and the two readings of this folder plan different GPU capacity; which tool plans this folder is not known here, so its GPU capacity was not checked`,
        ),
      );
  }
  return out;
}

/**
 * The pull request as Terraform reads it: no `.tofu` or `.tofu.json` file at either side (it
 * loads none), so no `.tf` file is shadowed and every reader sees Terraform's configuration.
 */
export function asTerraformReads(changes: ChangeSet): ChangeSet {
  return withoutFiles(changes, isTofuFile);
}

/**
 * The pull request as OpenTofu reads it: no `.tf` file its `.tofu` twin shadows, for every
 * reader (a Kubernetes manifest written in a shadowed `.tf` file is not applied either).
 */
export function asTofuReads(changes: ChangeSet, twins: readonly TwinFolder[]): ChangeSet {
  const shadowed = new Set(twins.flatMap(({ tofu }) => tofu.map((p) => p.replace(/\.tofu(\.json)?$/, '.tf$1'))));
  return withoutFiles(changes, (p) => shadowed.has(p));
}

/** The pull request with the files `hidden` picks absent at both sides. */
function withoutFiles(changes: ChangeSet, hidden: (path: string) => boolean): ChangeSet {
  const side = (reader: TreeReader): TreeReader => {
    const list = reader.list?.bind(reader);
    const dirs = reader.dirs?.bind(reader);
    const notAFile = reader.notAFile?.bind(reader);
    const contentId = reader.contentId?.bind(reader);
    const isDirectory = reader.isDirectory?.bind(reader);
    return {
      label: reader.label,
      read: (path) => (hidden(path) ? Promise.resolve(null) : reader.read(path)),
      ...(list ? { list: async (dir: string) => (await list(dir)).filter((p) => !hidden(p)) } : {}),
      ...(dirs ? { dirs } : {}),
      ...(notAFile ? { notAFile: (path: string) => (hidden(path) ? Promise.resolve(null) : notAFile(path)) } : {}),
      ...(contentId ? { contentId: (path: string) => (hidden(path) ? Promise.resolve(null) : contentId(path)) } : {}),
      ...(isDirectory ? { isDirectory } : {}),
    };
  };
  return {
    base: side(changes.base),
    head: side(changes.head),
    changedPaths: async () => (await changes.changedPaths()).filter((p) => !hidden(p)),
    ...(changes.repositories ? { repositories: changes.repositories } : {}),
  };
}
