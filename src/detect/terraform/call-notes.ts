import type { NotFollowed } from '../../domain/index.js';
import type { Unfollowed } from '../parser.js';
import type { Scope } from './expr-eval.js';
import { valueFingerprint } from './inputs-fingerprint.js';
import type { Locator } from './locator.js';

// Arguments that are Terraform's and shape nothing the module declares.
const NOT_INPUTS = new Set(['providers', 'depends_on']);

/**
 * A module call whose module is not read: what it declares is made from its inputs and from
 * defaults the review cannot see, so any input may size its GPU pools, whether or not it names a
 * GPU (the module's default machine type may be one). One note per argument (the source and
 * version too: another module, other defaults), each fingerprinted by its value, so a review
 * flags exactly the arguments whose value the pull request changes.
 */
export function callNotes(
  file: string,
  label: string,
  raw: Record<string, unknown>,
  loc: Locator,
  scope: Scope,
  reason: Extract<NotFollowed['reason'], 'local-module' | 'remote-module'>,
): Unfollowed[] {
  const block = loc.path(loc.file(), [['module', label]]);
  const source = typeof raw.source === 'string' ? raw.source : '';
  const notes: Unfollowed[] = [];
  for (const input of Object.keys(raw).sort()) {
    if (NOT_INPUTS.has(input)) continue;
    notes.push({
      file,
      line: (block && loc.child(block, input)?.line) ?? block?.line ?? null,
      reason,
      subject: `module.${label}`,
      needs: source,
      inputs: [input],
      fingerprint: JSON.stringify([input, valueFingerprint(raw[input], scope)]),
    });
  }
  return notes;
}

/**
 * The notes of the module calls of a set, also on each file that gives the set values (tfvars,
 * variable defaults, locals): a pull request that changes only `terraform.tfvars` changes what the
 * calls are handed, and the note must land on the file it changed. Each copy keeps the call's
 * fingerprint, so a values file whose change reaches no call is not flagged.
 */
export function onValueFiles(notes: readonly Unfollowed[], valueFiles: readonly string[]): Unfollowed[] {
  const out: Unfollowed[] = [];
  for (const n of notes) {
    if (n.reason !== 'local-module' && n.reason !== 'remote-module') continue;
    for (const file of valueFiles) if (file !== n.file) out.push({ ...n, file, line: null });
  }
  return out;
}
