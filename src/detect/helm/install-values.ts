import { changedKeys, valueAt as leafAt } from '../kit/changed-keys.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import type { GitopsInstall } from './gitops-installs.js';
import { escapeRegex } from '../../util/escape-regex.js';

/* Which values files an install names, and which changes of theirs could size capacity. */

/**
 * An install names the values file; one not worked out (an ApplicationSet whose generators need the
 * cluster) names every file its templated paths could become (`clusters/{{name}}/values.yaml`).
 */
export function names(install: GitopsInstall, path: string): boolean {
  if (install.valueFiles.includes(path)) return true;
  if (install.templated === undefined) return false;
  return install.valueFiles.some((f) => f.includes('{{') && templatedPath(f).test(path));
}

function templatedPath(file: string): RegExp {
  const parts = file.split(/\{\{.*?\}\}/);
  return new RegExp(`^${parts.map((p) => escapeRegex(p)).join('[^/]+')}$`);
}

/** Changed leaves that could size capacity whatever chart reads them: a sizing key, a number, a GPU name. */
export function sizingKeys(before: unknown, after: unknown): string[] {
  return changedKeys(before, after).filter(
    (k) =>
      sizesCapacity(k) ||
      [leafAt(before, k), leafAt(after, k)].some((v) => typeof v === 'number' || (typeof v === 'string' && namesGpu(v))),
  );
}
