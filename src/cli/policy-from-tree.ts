import type { Diagnostic, TreeReader } from '../domain/index.js';
import { DEFAULT_POLICY, diagnostic } from '../domain/index.js';
import { readLocalPolicy, type LoadedPolicy } from '../review/index.js';
import { loadYaml, parsePolicy } from '../workloads/index.js';

/**
 * The policy from `--config` (its text as `readOperatorInput` gave it), else from the base side
 * (a PR cannot loosen its own rules).
 */
export async function loadPolicy(base: TreeReader, config?: { file: string; text: string }): Promise<LoadedPolicy> {
  if (config !== undefined) return local(config.file, config.text);
  const found = await readLocalPolicy(base);
  if (found.kind === 'unread') return found.loaded;
  return found.kind === 'file' ? local(found.path, found.text) : { policy: DEFAULT_POLICY, diagnostics: [], file: null };
}

/**
 * A policy read from a file alone. Its `_extends` names a file in another repository, which a local
 * review does not read: the inherited keys are not known, so the policy is unread, as the App
 * treats one it cannot read, rather than taken as the keys this file happens to set.
 */
function local(file: string, text: string): LoadedPolicy {
  const parsed = parsePolicy(file, text);
  const inherits = extendsOf(file, text);
  if (inherits === null) return { ...parsed, file };
  return { ...parsed, diagnostics: [...parsed.diagnostics, inherits], file, unread: [file] };
}

function extendsOf(file: string, text: string): Diagnostic | null {
  const source = loadYaml(file, text);
  if (source.kind !== 'value' || typeof source.value !== 'object' || source.value === null) return null;
  const value = (source.value as Record<string, unknown>)['_extends'];
  if (typeof value !== 'string') return null;
  return diagnostic(
    file,
    source.lineOf(['_extends']),
    'error',
    `_extends: ${value} is not read by a local review, so the policy is not known whole; review with --pr ` +
      '(which reads it through the GitHub API) or pass --config with the whole policy',
  );
}
