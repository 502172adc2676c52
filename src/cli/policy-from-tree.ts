import type { TreeReader } from '../domain/index.js';
import { DEFAULT_POLICY } from '../domain/index.js';
import { POLICY_PATHS, type LoadedPolicy } from '../review/index.js';
import { parsePolicy } from '../workloads/policy.js';
import { readInputFile } from './read-input.js';

/** The policy from `--config`, else from the base side (a PR cannot loosen its own rules). */
export async function loadPolicy(base: TreeReader, configFile?: string): Promise<LoadedPolicy> {
  if (configFile !== undefined) {
    const text = await readInputFile('--config', configFile);
    return { ...parsePolicy(configFile, text), file: configFile };
  }
  for (const path of POLICY_PATHS) {
    const text = await base.read(path);
    if (text !== null) return { ...parsePolicy(path, text), file: path };
  }
  return { policy: DEFAULT_POLICY, diagnostics: [], file: null };
}
