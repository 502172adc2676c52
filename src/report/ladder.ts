import type { UtilisationLadder } from '../domain/index.js';
import { MAX_SENTENCE, md } from './escape.js';
import { num, pct } from './numbers.js';
import { capped } from './tables.js';
import { flagText } from './findings.js';

/** Flagged ladders whose reasons are written out; the table names the flags of the rest. */
const MAX_FLAGGED = 8;

const FIELD_NAME: Record<NonNullable<UtilisationLadder['computeField']>, string> = {
  DCGM_FI_PROF_SM_ACTIVE: 'SM',
  DCGM_FI_PROF_GR_ENGINE_ACTIVE: 'GR engine',
};

/** A rung's GPU-hours as a share of the allocated ones; null when either is unmeasured. */
function share(l: UtilisationLadder, hours: number | null): number | null {
  if (hours === null || l.allocatedGpuHours === null || l.allocatedGpuHours <= 0) return null;
  return hours / l.allocatedGpuHours;
}

function busy(l: UtilisationLadder): number | null {
  return l.busyFraction ?? share(l, l.busyGpuHours);
}

function productive(l: UtilisationLadder): string {
  if (l.outcomesPerGpuHour === null) return '—';
  return `${num(l.outcomesPerGpuHour)}${l.verifiedOutcomes === null ? '' : ` (${num(l.verifiedOutcomes)} verified)`}`;
}

/** Ladders with at least an allocation: the rest have nothing to climb from. */
export function measuredLadders(ladders: readonly UtilisationLadder[] | undefined): UtilisationLadder[] {
  return (ladders ?? []).filter((l) => l.allocatedGpuHours !== null && l.allocatedGpuHours > 0);
}

/** A rung as its share of the allocated GPU-hours and, when measured, the GPU-hours themselves: `25% (24)`. */
function rung(l: UtilisationLadder, fraction: number | null, hours: number | null): string {
  const share = pct(fraction);
  return hours === null || share === '—' ? share : `${share} (${num(hours)})`;
}

/**
 * The ladder as a table: the rungs side by side as shares of the allocated GPU-hours with the
 * GPU-hours beside each. A table, not bars: each rung is part of the one before, so bars drawn
 * over one another read as stacked, and bars side by side would only repeat these numbers.
 */
export function ladderTable(ladders: readonly UtilisationLadder[]): string {
  const rows = ladders.map((l) => [
    l.scope,
    md(l.name),
    num(l.allocatedGpuHours),
    rung(l, busy(l), l.busyGpuHours),
    rung(l, share(l, l.computingGpuHours), l.computingGpuHours),
    rung(l, share(l, l.tensorGpuHours), l.tensorGpuHours),
    l.computeField === null ? '—' : FIELD_NAME[l.computeField],
    productive(l),
    // The flags' reasons are in the text above the table; the cell only names them.
    l.flags.length === 0 ? '—' : l.flags.map((f) => `**${f.kind}**`).join(', '),
  ]);
  const header = [
    'Scope',
    'Name',
    'Allocated GPU-hours',
    'Busy, % (GPU-hours)',
    'Computing, % (GPU-hours)',
    'Tensor, % (GPU-hours)',
    'Compute metric',
    'Verified outcomes per GPU-hour',
    'Flags',
  ];
  return capped(header, rows, 'ladders');
}

/** A flagged ladder in words: why each flag was raised, which the table's cell only names. */
function flagLines(l: UtilisationLadder): string {
  const flags = l.flags.map((f) => `\n  - **${f.kind}**: ${md(flagText(f), MAX_SENTENCE)}`).join('');
  // Bold ends only at a non-space: a name ending in a space would leave the asterisks showing.
  return `- ${l.scope} **${md(l.name.trim()) || '(no name)'}**:${flags}`;
}

/** Why each flagged ladder was flagged, the first few; empty when none is. */
export function ladderFlags(ladders: readonly UtilisationLadder[]): string {
  const flagged = ladders.filter((l) => l.flags.length > 0);
  const lines = flagged.slice(0, MAX_FLAGGED).map(flagLines);
  const left = flagged.length - lines.length;
  return lines.join('\n') + (left > 0 ? `\n- …and ${left} more flagged in the table.` : '');
}

export const LADDER_NOTE =
  'Every share is of the allocated GPU-hours, and each rung is part of the one before: busy, then computing, then on tensor cores. ' +
  'Verified outcomes per GPU-hour is the productive rung.';
