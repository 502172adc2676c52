import type { MissingEvidence } from '../domain/index.js';
import type { Skipped } from './prometheus/response.js';
import type { QueryAnswer } from './source.js';

/**
 * Prometheus writes NaN and ±Inf as sample values (0/0 in a recording rule, an exporter with
 * nothing to say). They are left out of an answer's series and counted in `skipped`: what is left
 * is no longer the whole measurement, and a sum or an integral over it reads low.
 */

/** Samples that were numbers but not finite ones. */
export function notFiniteCount(skipped: Skipped): number {
  return skipped.nan + skipped.inf;
}

/** More samples were NaN or ±Inf than finite: what is left is not an answer to the question. */
export function mostlyNotFinite(finiteSamples: number, skipped: Skipped): boolean {
  return notFiniteCount(skipped) > finiteSamples;
}

function counts(skipped: Skipped): string {
  return `${skipped.nan} NaN, ${skipped.inf} infinite`;
}

/** The missing result's message for an answer whose samples were mostly NaN or ±Inf. */
export function mostlyNotFiniteMessage(where: string, id: string, finiteSamples: number, skipped: Skipped): string {
  const bad = notFiniteCount(skipped);
  return `${where}: most samples were not finite (${bad} of ${bad + finiteSamples}: ${counts(skipped)}) for ${id}`;
}

/**
 * The missing-evidence line for an answer used although some of its samples were not finite;
 * null when every sample was. It names the query, so a reader can run it and see where they come from.
 */
export function notFiniteNote(a: QueryAnswer): MissingEvidence | null {
  const bad = notFiniteCount(a.skipped);
  if (bad === 0) return null;
  const finite = a.series.reduce((n, s) => n + s.samples.length, 0);
  const dropped = a.droppedSeries ?? 0;
  const series = dropped > 0 ? `; ${dropped} of its series had no finite sample and ${dropped === 1 ? 'is' : 'are'} left out` : '';
  return {
    what: `${a.query.what}: ${bad} of ${bad + finite} samples of ${a.query.id} were not finite (${counts(a.skipped)})${series}; the numbers taken from it count only the finite ones`,
    how: `run ${a.query.id} in Prometheus and find where its NaN or ±Inf values come from (a division by zero in a recording rule, an exporter writing NaN)`,
  };
}
