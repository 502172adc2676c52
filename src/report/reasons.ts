import { boundText } from './bound-proof.js';
import type { CapacityChange, ChangeReview, Lever, NeedParts, VerdictReason } from '../domain/index.js';
import { servedBy } from '../domain/index.js';

function describeTarget(change: CapacityChange): string {
  const t = servedBy(change);
  return t.kind === 'queue' ? `ClusterQueue ${t.name}` : `pool ${t.name}`;
}

function moreGpus(n: number): string {
  return `${n} more GPU${n === 1 ? '' : 's'}`;
}

/** `12 GPUs: 8 GPUs at the staggered peak + 2 for services + 20% headroom`. */
function needText(n: NeedParts): string {
  const parts = n.staggeredPeak === null ? [] : [`${n.staggeredPeak} GPUs at the staggered peak`];
  if (n.declaredServices > 0) parts.push(`${n.declaredServices} for services`);
  // Headroom applies to the parts above; services sized at their peak carry their own.
  if (n.headroom > 0 && parts.length > 0) parts.push(`${Math.round(n.headroom * 100)}% headroom`);
  if (parts.length === 0 && n.sizedServices > 0) return `${n.gpus} GPUs, for services sized at their observed peak`;
  if (n.sizedServices > 0) parts.push(`${n.sizedServices} for services sized at their observed peak`);
  return parts.length <= 1 ? `${n.gpus} GPUs` : `${n.gpus} GPUs: ${parts.join(' + ')}`;
}

function withLevers(levers: readonly Lever[]): string {
  return levers.length === 0 ? '' : ` with ${levers.join(', ')}`;
}

/**
 * Why a change's verdict is what it is, one sentence without a final full stop. The same on every
 * surface: a reason names numbers and files, never a flag or a setting.
 */
function reasonText(reason: VerdictReason, change: CapacityChange): string {
  const target = describeTarget(change);
  switch (reason.code) {
    case 'sharing-factor-change':
      return `GPU sharing: each GPU is advertised as ${reason.factorAfter} (was ${reason.factorBefore}); no new hardware`;
    case 'catalog-unreadable':
      return `${reason.catalogFile} cannot be read (${reason.at}), so the need of ${target} is unknown`;
    case 'no-catalog':
      return `no readable workload catalog, so the need of ${target} is unknown`;
    case 'catalog-entries-invalid':
      return `every catalog entry that runs in ${target} has errors, so its need is unknown`;
    case 'no-linked-workloads':
      return `${reason.catalogFile} documents no workload that runs in ${target}`;
    case 'lowers-capacity':
      return reason.fits
        ? `lowers capacity to ${reason.gpusAfter} GPUs; the need (${needText(reason.need)}) still fits`
        : `lowers capacity to ${reason.gpusAfter} GPUs, below the need (${needText(reason.need)})`;
    case 'workloads-unplanned':
      return `${reason.workloads.map((w) => (typeof w === 'string' ? w : `the entry at ${w.entryAt}`)).join(', ')} cannot be planned from the catalog, so the need of ${target} is unknown`;
    case 'capacity-meets-need':
      return reason.need.gpus <= reason.gpusBefore && reason.borrowed === 0
        ? `the ${reason.gpusBefore} GPUs already there meet the need (${needText(reason.need)})${withLevers(reason.levers)}`
        : `the ${reason.gpusBefore} GPUs already there and ${reason.borrowed} borrowed from the cohort meet the need (${needText(reason.need)})${withLevers(reason.levers)}`;
    case 'need-below-request': {
      const stepped =
        reason.inSteps > reason.gpusNeeded ? `; this pool grows in steps of ${reason.step} GPUs, so that is ${reason.inSteps}` : '';
      const borrowed = reason.borrowed > 0 ? ` (${reason.borrowed} borrowed from the cohort)` : '';
      return `the need (${needText(reason.need)}) calls for ${moreGpus(reason.gpusNeeded)}${stepped}, not ${reason.delta}${borrowed}`;
    }
    case 'need-rounds-to-request':
      return `the need (${needText(reason.need)}) calls for ${moreGpus(reason.gpusNeeded)}, and this pool grows in steps of ${reason.step} GPUs: +${reason.delta} is the least that covers it`;
    case 'need-proven':
      return `no schedule meets every deadline with fewer GPUs (${boundText(reason.bound)}); the need is ${needText(reason.need)}`;
    case 'need-best-found':
      return `the best schedule found needs ${needText(reason.need)}; the proven lower bound is ${reason.lowerBound} GPUs (${boundText(reason.bound)})`;
    case 'sharing-unknown':
      return `the physical GPUs of ${target} are unknown: its GPUs may be shared ones (${reason.sharingCode})`;
    case 'observed-lowers-capacity':
      return `lowers capacity to ${reason.gpusAfter} GPUs; the observed peak needs ${reason.observedNeed}`;
    case 'observed-peak-fits': {
      const supply =
        reason.borrowed > 0
          ? `the ${reason.gpusBefore} GPUs already there and ${reason.borrowed} borrowable`
          : `the ${reason.gpusBefore} GPUs already there`;
      const peak =
        reason.reclaimed > 0 ? `${reason.peak} GPUs, ${reason.peak - reason.reclaimed} without the idle pods` : `${reason.peak} GPUs`;
      return `${supply} hold the observed peak (${peak}; ${reason.need} with headroom) and the ${reason.delta} asked${withLevers(reason.levers)}`;
    }
    case 'observed-peak-exceeds':
      return (
        `the observed peak (${reason.peak} GPUs, ${reason.need} with headroom) and the ${reason.delta} asked do not fit the ${reason.gpusBefore} GPUs there` +
        (reason.borrowable > 0 ? ` and ${reason.borrowable} borrowable` : '') +
        ', and without a catalog the need of what is added is unknown'
      );
  }
}

/** A review's reason in words. */
export function reviewReason(review: ChangeReview): string {
  return reasonText(review.reason, review.change);
}
