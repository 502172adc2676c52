import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { namesGpu } from '../kit/gpu-signal.js';
import type { Unfollowed } from '../parser.js';
import type { Scope } from './expr-eval.js';
import { inputsFingerprint } from './inputs-fingerprint.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';

/**
 * Inputs whose names say they count a pool's nodes or GPUs. A module given only a machine type or
 * an accelerator type (Cluster Toolkit's gpu-definition) describes GPUs, it does not size a pool.
 */
const GPU_INPUT =
  /node_count|(^|_)(max|min)_nodes?$|(^|_)nodes$|(^|_)(max|min|desired)_size$|(^|_)(max|min)_count$|gpu_count|accelerator_count|(^|_)gpus$|(^|_)replicas$/i;

/**
 * Inputs that are pools, or that pick the machines of pools a module sizes by default (the AKS
 * module's `agents_size`). A machine or accelerator type alone describes GPUs without sizing a pool.
 */
const POOL_INPUT = /(^|_)node_?pools?$|^agents_size$|(^|_)vm_size$/i;

/** `./modules/gpu_pool`, `../shared/gke`: a module in the same repository. */
function isLocalSource(source: unknown): source is string {
  return typeof source === 'string' && (source.startsWith('./') || source.startsWith('../'));
}

/**
 * Calls of modules in the same repository that pass what looks like a GPU pool's size. Their pools
 * are declared in the module's own directory, which is read only when its files change, so a
 * change to these inputs alone would pass unseen: say so at the call instead.
 */
export function localModuleWarnings(
  file: string,
  body: Record<string, unknown>,
  loc: Locator,
  scope: Scope,
): { diagnostics: Diagnostic[]; notFollowed: Unfollowed[] } {
  const out: Diagnostic[] = [];
  const notFollowed: Unfollowed[] = [];
  let named: boolean | undefined;
  for (const [label, blocks] of Object.entries(asRecord(body.module))) {
    if (!Array.isArray(blocks)) continue;
    const raw = asRecord(blocks[blocks.length - 1]);
    if (!isLocalSource(raw.source)) continue;
    // Sizes, or whole pools (a node_pools map, an AKS module's VM size) in a file that names GPUs.
    const gpuFile = (named ??= namesGpu(JSON.stringify(body)));
    const inputs = Object.keys(raw).filter((k) => GPU_INPUT.test(k) || (gpuFile && POOL_INPUT.test(k)));
    if (inputs.length === 0) continue;
    const line = loc.path(loc.file(), [['module', label]])?.line ?? null;
    out.push(
      diagnostic(
        file,
        line,
        'warning',
        `module.${label} (source ${raw.source}) sizes GPU pools with (${inputs.join(', ')}) but gpu-justify does not read local modules through their calls: ` +
          `a change to these inputs is not counted; check the GPUs of the pools in ${raw.source} by hand`,
      ),
    );
    notFollowed.push({
      file,
      line,
      reason: 'local-module',
      subject: `module.${label}`,
      needs: raw.source,
      inputs,
      // An input that cannot be evaluated is known by its source only: the file's locals it may read go in too.
      fingerprint: inputsFingerprint(raw, scope) + JSON.stringify(body.locals ?? null),
    });
  }
  return { diagnostics: out, notFollowed };
}
