import type { ChangeSet, Diagnostic, FileCoverage } from '../domain/index.js';
import type { CapacityChange } from '../domain/index.js';
import { asTerraformReads, asTofuReads, twinErrors, twinFolders } from './terraform/opentofu-files.js';
import type { TwinFolder } from './terraform/opentofu-files.js';
import { dirOf } from './kit/paths.js';

/**
 * A folder holding `x.tofu` beside `x.tf` is one configuration to OpenTofu (the `.tofu` file in
 * place of its twin) and another to Terraform (the `.tf` file, no `.tofu` at all), and which tool
 * plans it is not known. Where the pull request changes such a folder it is read both ways: when
 * both readings plan the same capacity change and neither leaves more unread, the change is judged
 * once, each changed file by the reading that applies it; when they differ, each changed
 * configuration file of the folder is not followed, naming the twins.
 */

/** What one detection makes of a pull request (detect-changes.ts), with errors it is handed to add. */
interface Reading {
  changes: CapacityChange[];
  diagnostics: Diagnostic[];
  coverage: FileCoverage[];
}
type Detect<R extends Reading> = (changes: ChangeSet, errors: readonly Diagnostic[]) => Promise<R>;

/** The pull request read by `detect` as OpenTofu and as Terraform read its folders of twins. */
export async function readBothWays<R extends Reading>(changes: ChangeSet, detect: Detect<R>): Promise<R> {
  const changed = await changes.changedPaths();
  const lister = changes.head.list ? changes.head : changes.base;
  const twins = await twinFolders(changed, {
    list: async (dir) => (lister.list ? lister.list(dir) : []),
    base: changes.base,
    head: changes.head,
  });
  if (twins.length === 0) return detect(changes, []);
  const tofu = await detect(asTofuReads(changes, twins), []);
  const terraform = await detect(asTerraformReads(changes), []);
  const judged = judgedOnce(tofu, terraform, twins);
  return judged ?? detect(changes, twinErrors(changed, twins));
}

/**
 * The OpenTofu reading, with each changed `.tf` file that a twin shadows judged as Terraform read
 * it (OpenTofu never reads it); null when the readings plan different changes, or Terraform's
 * leaves a file unread that the judged result would call read.
 */
function judgedOnce<R extends Reading>(tofu: R, terraform: R, twins: readonly TwinFolder[]): R | null {
  if (!sameChanges(tofu.changes, terraform.changes)) return null;
  const shadowed = new Set(twins.flatMap(({ tofu: files }) => files.map((p) => p.replace(/\.tofu(\.json)?$/, '.tf$1'))));
  const byTerraform = new Map(terraform.coverage.map((c) => [c.file, c]));
  // A shadowed file is absent from OpenTofu's reading; it is judged as Terraform reads it.
  const inTofu = new Set(tofu.coverage.map((c) => c.file));
  const coverage = [
    ...tofu.coverage.map((c) => (shadowed.has(c.file) ? (byTerraform.get(c.file) ?? c) : c)),
    ...terraform.coverage.filter((c) => shadowed.has(c.file) && !inTofu.has(c.file)),
  ];
  const judged = new Map(coverage.map((c) => [c.file, c.state]));
  for (const c of terraform.coverage) if (c.state === 'not-followed' && judged.get(c.file) !== 'not-followed') return null;
  const diagnostics = [
    ...tofu.diagnostics.filter((d) => !shadowed.has(d.file)),
    ...terraform.diagnostics.filter((d) => shadowed.has(d.file)),
  ];
  // An error Terraform's reading meets in a folder of twins, not met by OpenTofu's: not judged once.
  const tofuErrors = new Set(tofu.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}\u0000${d.message}`));
  const folders = new Set(twins.map((t) => t.dir));
  for (const d of terraform.diagnostics)
    if (d.severity === 'error' && folders.has(dirOf(d.file)) && !shadowed.has(d.file) && !tofuErrors.has(`${d.file}\u0000${d.message}`))
      return null;
  return { ...tofu, coverage, diagnostics };
}

/** Whether two readings plan the same changes: the same objects, GPUs and models, wherever declared. */
function sameChanges(a: readonly CapacityChange[], b: readonly CapacityChange[]): boolean {
  const key = (c: CapacityChange): string =>
    JSON.stringify([c.kind, c.name, c.gpuModel, c.gpuModelBefore ?? null, c.gpusBefore, c.gpusAfter, c.delta]);
  const [x, y] = [a.map(key).sort(), b.map(key).sort()];
  return x.length === y.length && x.every((k, i) => k === y[i]);
}
