import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { isTfvarsPath } from './module-scope.js';
import { isTfFile } from './tf-json.js';

/** Terraform's override files (`override.tf`, `*_override.tf` and their `.tf.json` forms; OpenTofu's `.tofu` ones), named by the language's rule. */
export function isOverrideFile(path: string): boolean {
  return /(?:^|\/)(?:[^/]*_)?override\.(?:tf|tofu)(?:\.json)?$/.test(path);
}

/**
 * An error on each changed Terraform file (configuration or tfvars) of a folder that holds an override file at either side
 * (head's listing, or a changed path: one the pull request adds or removes). Terraform merges
 * those files into the blocks they name, argument by argument, before it plans; none of the
 * readers applies that merge, so a count set there (or a decoy left in the block it overrides)
 * would otherwise be read as the folder's pools. Unread, the folder is not followed.
 */
export async function overrideFileErrors(changed: readonly string[], list: (dir: string) => Promise<string[]>): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  // A tfvars value may feed an argument an override replaces: its change is not followed either.
  const terraform = changed.filter((p) => isTfFile(p) || isTfvarsPath(p));
  for (const dir of [...new Set(terraform.map(dirOf))].sort()) {
    const here = (p: string) => dirOf(p) === dir;
    const overrides = [...new Set([...(await list(dir)).filter(here), ...changed.filter(here)])].filter(isOverrideFile).sort();
    if (overrides.length === 0) continue;
    for (const path of terraform.filter(here))
      out.push(
        diagnostic(
          path,
          null,
          'error',
          `Terraform merges the override file${overrides.length > 1 ? 's' : ''} ${overrides.join(', ')} into the blocks of this folder before it plans; override files are not applied here, so the GPU capacity of this folder was not checked`,
        ),
      );
  }
  return out;
}
