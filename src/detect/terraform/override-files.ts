import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { mayNameGpus } from '../kit/signal-scan/signals.js';
import { isTfvarsPath } from './module-scope.js';
import { mergeOverrides } from './override-merge.js';
import type { MergeFile, MergeProblem } from './override-merge.js';
import { shadowedByTofu } from './opentofu-files.js';
import { isTfFile, parseTerraformFile } from './tf-json.js';

/** Terraform's override files (`override.tf`, `*_override.tf`, their `.tf.json` forms and OpenTofu's `.tofu` ones), named by the language's rule. */
export function isOverrideFile(path: string): boolean {
  return /(?:^|\/)(?:[^/]*_)?override\.(?:tf|tofu)(?:\.json)?$/.test(path);
}

interface OverrideIo {
  list(dir: string): Promise<string[]>;
  base: { read(path: string): Promise<string | null> };
  head: { read(path: string): Promise<string | null> };
}

/**
 * An error on each changed Terraform file (configuration or tfvars) of a folder whose override
 * files the merge cannot apply as Terraform would, at either side, when a file of the folder names
 * GPUs: an override file that does not parse, a block with nothing to merge into, a `dynamic`
 * block, a block type whose merge is not known (override-merge.ts). The readers count what the
 * merged configuration declares; where that is uncertain, the folder is not followed.
 */
export async function overrideFileErrors(changed: readonly string[], io: OverrideIo): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const terraform = changed.filter((p) => isTfFile(p) || isTfvarsPath(p));
  for (const dir of [...new Set(terraform.map(dirOf))].sort()) {
    const here = (p: string) => dirOf(p) === dir;
    const listed = [...new Set([...(await io.list(dir)).filter(here), ...changed.filter(here)])];
    const shadowed = shadowedByTofu(listed);
    const configuration = listed.filter((p) => isTfFile(p) && !shadowed.has(p)).sort();
    if (!configuration.some(isOverrideFile)) continue;
    const problems: MergeProblem[] = [];
    let namesGpus = false;
    for (const side of [io.base, io.head]) {
      const texts = await Promise.all(configuration.map(async (path) => ({ path, text: await side.read(path) })));
      namesGpus ||= texts.some((f) => f.text !== null && mayNameGpus(f.text));
      problems.push(...sideProblems(texts.filter((f): f is { path: string; text: string } => f.text !== null)));
    }
    if (problems.length === 0 || !namesGpus) continue;
    const [first] = problems as [MergeProblem];
    const what = `${first.file}${first.header.length > 0 ? ` (${first.header.join('.')})` : ''}: ${first.why}`;
    for (const path of terraform.filter(here))
      out.push(
        diagnostic(
          path,
          null,
          'error',
          `Terraform merges this folder's override files into its blocks before it plans, and one merge is not applied here (${what}), so the GPU capacity of this folder was not checked`,
        ),
      );
  }
  return out;
}

/** What the merge of one side's configuration files cannot apply: an override file that does not parse first. */
function sideProblems(files: readonly { path: string; text: string }[]): MergeProblem[] {
  const primaries: MergeFile[] = [];
  const overrides: MergeFile[] = [];
  const problems: MergeProblem[] = [];
  for (const f of files) {
    const hcl = parseTerraformFile(f.path, f.text);
    if (hcl.ok) (isOverrideFile(f.path) ? overrides : primaries).push({ path: f.path, body: hcl.value });
    else if (isOverrideFile(f.path)) problems.push({ file: f.path, header: [], why: `it does not parse (${hcl.error.message})` });
  }
  return [...problems, ...mergeOverrides(primaries, overrides).problems];
}
