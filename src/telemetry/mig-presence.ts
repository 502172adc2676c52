import type { MigPresenceState, MissingEvidence } from '../domain/index.js';
import { migPresence } from './queries/mig-presence.js';
import type { QueryResult, TelemetrySource } from './source.js';
import { toMissingEvidence } from './source.js';

/**
 * What the MIG presence probe said, and so whether the MIG queries were asked (MigPresenceState):
 * - `found`: series of MIG devices exist in the window; they were asked;
 * - `none`: none exist; they were not, and nothing is missing for it;
 * - `not-recorded`: a snapshot recorded before the probe existed holds no answer to it; taken as
 *   "no MIG known", as such snapshots hold no MIG answers either, and not listed as missing;
 * - `failed`: it could not be told; they were asked all the same, and the failure is listed.
 */
export interface MigPresence {
  status: MigPresenceState;
  /** The probe's own answer. */
  result: QueryResult;
}

export function readMigPresence(result: QueryResult): MigPresence {
  if (result.status === 'ok') {
    const any = result.series.some((s) => s.samples.some((p) => p.v > 0));
    return { status: any ? 'found' : 'none', result };
  }
  switch (result.reason) {
    case 'no-data':
      return { status: 'none', result };
    case 'not-in-snapshot':
      return { status: 'not-recorded', result };
    default:
      return { status: 'failed', result };
  }
}

/** The MIG queries are asked when MIG devices were found, or when that could not be told. */
export function asksMig(p: MigPresence): boolean {
  return p.status === 'found' || p.status === 'failed';
}

/** The missing-evidence line of a probe that failed; null otherwise. */
export function migPresenceMissing(p: MigPresence): MissingEvidence | null {
  return p.status === 'failed' && p.result.status === 'missing' ? toMissingEvidence(p.result) : null;
}

/** Asks whether the cluster has MIG devices over the window. */
export async function probeMigPresence(source: TelemetrySource, at: Date, windowMinutes: number): Promise<MigPresence> {
  return readMigPresence(await source.query(migPresence({ windowMinutes }), at, windowMinutes));
}
