import type { CapacityChange, CapacityDecl } from '../domain/index.js';
import { costOf } from './cost.js';
import { byPosition, pairDecls } from './match-decls.js';
import type { DeclPair } from './match-decls.js';
import type { ParseResult } from './parser.js';

/**
 * The GPU capacity changes between base and head. A declaration that appears counts from 0,
 * one that disappears goes to 0; equal totals are no change. A side whose count could not be
 * read gives no change at all: its diagnostics say why, and guessing 0 would invent a delta.
 */
export function compareSides(base: ParseResult, head: ParseResult): CapacityChange[] {
  const changes: CapacityChange[] = [];
  for (const pair of pairDecls(base, head)) {
    const change = toChange(pair);
    if (change) changes.push(change);
  }
  return changes.sort(byPosition);
}

function toChange({ before, after }: DeclPair): CapacityChange | null {
  if ((before && !before.decl) || (after && !after.decl)) return null;
  const from = before?.decl;
  const to = after?.decl;
  const at = to ?? from;
  if (!at) return null;
  const gpusBefore = from?.gpus ?? 0;
  const gpusAfter = to?.gpus ?? 0;
  // A pool whose sharing factor changed (GKE `max_shared_clients_per_gpu` 2 → 4) changes the GPUs
  // the scheduler sees with none bought: a change, of 0 physical GPUs. So does one whose GPU model
  // changed at the same count (`g5.12xlarge` → `g6.12xlarge`): as many GPUs, other hardware and price.
  const swapped = from?.gpuModel && to?.gpuModel && from.gpuModel !== to.gpuModel ? from.gpuModel : null;
  if (gpusBefore === gpusAfter && factorOf(from) === factorOf(to) && swapped === null) return null;
  const change: CapacityChange = {
    file: at.file,
    line: at.line,
    kind: at.kind,
    name: at.name,
    gpuModel: to?.gpuModel ?? from?.gpuModel ?? null,
    ...(swapped !== null ? { gpuModelBefore: swapped } : {}),
    gpusBefore,
    gpusAfter,
    delta: gpusAfter - gpusBefore,
  };
  if (from) change.before = from;
  if (to) change.after = to;
  // Default prices; the review re-prices with the policy's `prices` through costOf/withCost.
  return { ...change, ...costOf(change) };
}

function factorOf(decl: CapacityDecl | undefined): number | string | null {
  const s = decl?.sharing;
  if (!s) return null;
  return s.state === 'shared' ? s.factor : s.code;
}
