import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import type { Unfollowed } from '../parser.js';
import { acceleratorModel, looksLikeGpuType } from '../kit/gpu-types/index.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { isAksModuleSource } from './aks-module.js';
import { callNotes } from './call-notes.js';
import { isGkeModuleSource } from './gke-module.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';
import { declaresNoCompute } from './non-compute-modules.js';

// Inputs the EKS module reader takes (eks-module.ts), whatever the module's source.
const READ_INPUTS = ['eks_managed_node_groups', 'self_managed_node_groups'];
// Local modules have their own warning (local-modules.ts).
const isLocal = (source: string): boolean => source.startsWith('./') || source.startsWith('../');
const MAX_NAMED = 4;

/**
 * Calls of modules gpu-justify does not read (from a registry, git or another repository): the
 * pools they create are declared inside the module, from its inputs and its own defaults, so a
 * change to any input (a node count in tfvars, the version) could change them unseen. Each
 * argument gets a note (call-notes.ts) that a review raises when its value changes; a call
 * handed GPU machine types or accelerators also gets a warning, naming them. Modules that
 * create no compute (networks, IAM, buckets: non-compute-modules.ts) are left alone.
 */
export function unreadModuleWarnings(
  file: string,
  body: Record<string, unknown>,
  loc: Locator,
  scope: Scope,
): { diagnostics: Diagnostic[]; notFollowed: Unfollowed[] } {
  const out: Diagnostic[] = [];
  const notFollowed: Unfollowed[] = [];
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    const source = typeof raw.source === 'string' ? raw.source : null;
    if (source === null || isLocal(source)) continue;
    // Read by the module readers: the EKS module's node groups, the GKE and AKS modules' pools.
    if (READ_INPUTS.some((k) => raw[k] !== undefined) || isGkeModuleSource(source) || isAksModuleSource(source)) continue;
    if (declaresNoCompute(source)) continue;
    notFollowed.push(...callNotes(file, label, raw, loc, scope, 'remote-module'));
    const found: string[] = [];
    for (const [input, value] of Object.entries(raw)) {
      const v = evaluate(value, scope);
      if (!v.ok) continue;
      const gpus = [...new Set(gpuStrings(v.value))];
      if (gpus.length > 0) found.push(`${input}: ${gpus.join(', ')}`);
    }
    if (found.length === 0) continue;
    const line = loc.path(loc.file(), [['module', label]])?.line ?? null;
    const named = found.slice(0, MAX_NAMED).join('; ') + (found.length > MAX_NAMED ? `; and ${found.length - MAX_NAMED} more inputs` : '');
    out.push(
      diagnostic(
        file,
        line,
        'warning',
        `module.${label} (source ${source}) is given GPU machine types or accelerators (${named}), but gpu-justify does not read this module: ` +
          `the GPU capacity of its pools, and any change to it, is not counted; check them by hand`,
      ),
    );
  }
  return { diagnostics: out, notFollowed };
}

/** Strings in a value that name a GPU machine / instance / VM type or a GKE accelerator. */
function gpuStrings(v: Value, depth = 0): string[] {
  if (depth > 20 || v === null) return [];
  if (typeof v === 'string') return looksLikeGpuType(v) || acceleratorModel(v) !== null ? [v.trim()] : [];
  if (Array.isArray(v)) return v.flatMap((x) => gpuStrings(x, depth + 1));
  if (typeof v === 'object') return Object.values(v).flatMap((x) => gpuStrings(x, depth + 1));
  return [];
}
