import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { namesGpu } from '../kit/gpu-signal.js';
import type { Unfollowed } from '../parser.js';
import type { Scope } from './expr-eval.js';
import { callNotes } from './call-notes.js';
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
 * Calls of modules in the same repository. Such a module is read through its call when its folder
 * is in the tree (follow-modules.ts), which drops these notes; when it is not (an example calling
 * `"../.."`), what it declares comes from its inputs and defaults the review cannot see, so each
 * argument gets a note that a review raises when its value changes (call-notes.ts), and a call
 * handed what looks like a GPU pool's size a warning too.
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
    notFollowed.push(...callNotes(file, label, raw, loc, scope, 'local-module'));
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
  }
  return { diagnostics: out, notFollowed };
}
