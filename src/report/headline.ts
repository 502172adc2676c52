import { gpusText } from './numbers.js';
import type { ChangeReview, Finding, Lever, ReviewResult } from '../domain/index.js';
import { sharedMore } from './sharing.js';
import type { FactorChange } from './sharing.js';
import { MAX_SENTENCE, md } from './escape.js';
import { VERDICT_ICON, VERDICT_TITLE } from './verdict-text.js';
import { reviewReason } from './reasons.js';
import { findingText } from './findings.js';
import { missingWords } from './missing-words.js';
import { boundText } from './bound-proof.js';
import { itemAt } from '../util/indexed.js';
import { gpusAskedBy } from '../analysis/index.js';
import { modelSwapWords, swapLine } from './model-change.js';

/**
 * `+6 GPUs requested`: the cost is on the line under the headline. A swap to a model that asks
 * says so, since its GPUs were there before as another model: `+8 GPUs requested (GPU model
 * changed on team-a: T4 → H100, +$37,084/month)`.
 */
function requested(result: ReviewResult): string {
  const swaps = result.reviews.filter((r) => r.modelSwap?.asks === true);
  const first = swaps[0];
  if (first === undefined) return `+${result.gpusRequested} GPUs requested`;
  const more = swaps.length > 1 ? ` and ${swaps.length - 1} more` : '';
  return `+${result.gpusRequested} GPUs requested (${modelSwapWords(first)}${more})`;
}

/** A lever in a few words, for a combination on one line. */
function shortLever(f: Finding): string {
  switch (f.lever) {
    case 'stagger':
      return `stagger the runs (${f.gpusFreed} fewer GPUs to add)`;
    case 'reclaim-idle':
      return `reclaim ${gpusText(f.gpusFreed)} idle GPUs`;
    case 'borrow-quota':
      return `borrow ${f.gpusFreed} unused GPUs from the cohort`;
    case 'batching':
      return `batch more per replica (frees ${f.gpusFreed} GPUs)`;
    case 'cheaper-model':
      return `switch to a cheaper model (frees ${f.gpusFreed} GPUs)`;
    case 'mig':
      return `put the replicas on MIG slices (frees ${f.gpusFreed} GPUs)`;
    case 'time-slicing':
      return `time-slice the replicas (frees ${f.gpusFreed} GPUs)`;
  }
}

// Levers that act on the same GPUs: only the stronger of each pair counts in a combination.
const SAME_GPUS: Partial<Record<Finding['lever'], Finding['lever']>> = { batching: 'cheaper-model', 'cheaper-model': 'batching' };

/**
 * What to do instead, in one phrase. With the combination the verdict rests on (`levers`): its one
 * lever (its own summary when it is short), or its levers joined with `+`. Without one: the lever
 * that meets the need alone, else every lever that frees GPUs, strongest first, joined with `+`.
 */
export function instead(findings: Finding[], levers: readonly Lever[] = []): string | null {
  const inCombination = levers.flatMap((l) => {
    const best = findings.filter((f) => f.lever === l).sort((a, b) => b.gpusFreed - a.gpusFreed)[0];
    return best ? [best] : [];
  });
  if (inCombination.length === 1) {
    const only = itemAt(inCombination, 0, 'one finding, checked above');
    return findingText(only).length <= SHORT_SUMMARY ? md(findingText(only), MAX_SENTENCE) : shortLever(only);
  }
  if (inCombination.length > 1) return inCombination.map(shortLever).join(' + ');
  const alone =
    findings.filter((f) => f.meetsNeed && f.gpusFreed > 0).sort((a, b) => b.gpusFreed - a.gpusFreed)[0] ??
    findings.find((f) => f.meetsNeed);
  if (alone) return findingText(alone).length <= SHORT_SUMMARY ? md(findingText(alone), MAX_SENTENCE) : shortLever(alone);
  const best = new Map<Finding['lever'], Finding>();
  for (const f of findings.filter((x) => x.gpusFreed > 0).sort((a, b) => b.gpusFreed - a.gpusFreed)) {
    const rival = SAME_GPUS[f.lever];
    if (!best.has(f.lever) && !(rival !== undefined && best.has(rival))) best.set(f.lever, f);
  }
  const freeing = [...best.values()];
  if (freeing.length === 0) return null;
  if (freeing.length === 1 && freeing[0] && findingText(freeing[0]).length <= SHORT_SUMMARY)
    return md(findingText(freeing[0]), MAX_SENTENCE);
  return freeing.map(shortLever).join(' + ');
}

/** A lever's own summary goes in the headline up to this length; longer ones are shortened. */
const SHORT_SUMMARY = 160;

/** Why no lever reaches: the planner's proven bound for the first growing change that has one. */
function bound(result: ReviewResult): string | null {
  const review = result.reviews.find((r) => gpusAskedBy(r) > 0 && r.verdict === 'justified');
  if (!review) return null;
  const plan = review.plan;
  if (!plan || plan.schedule.length === 0) return md(reviewReason(review), MAX_SENTENCE);
  const need =
    review.need !== null && review.need !== plan.lowerBound ? `; the need with headroom is ${review.need}${inSteps(review)}` : '';
  return `no lever reaches: no schedule meeting every deadline uses fewer than ${plan.lowerBound} GPUs (${md(boundText(plan.boundProof), MAX_SENTENCE)})${need}`;
}

/** Why a request above the need is still the least one: the pool only grows in whole nodes. */
function inSteps(review: ChangeReview): string {
  const step = review.change.after?.gpuStep;
  const short = review.need === null ? 0 : review.need - review.change.gpusBefore;
  if (step === undefined || step <= 1 || short <= 0 || short >= review.change.delta) return '';
  return `, and the pool grows in steps of ${step} GPUs, so +${review.change.delta} is the least that covers it`;
}

/** `Stagger the runs` → `stagger the runs`, for a sentence continued after a semicolon. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/**
 * Cuts that leave less than the documented workloads need. They ask for nothing, so they never
 * sway the verdict, but a reviewer approving a cut must see that it starves what runs there.
 */
function shortfalls(result: ReviewResult): string[] {
  return result.reviews
    .filter((r) => r.change.delta < 0 && r.need !== null && r.change.gpusAfter < r.need)
    .map((r) => `${md(r.change.name)} drops to ${r.change.gpusAfter} GPUs, under the ${r.need} its documented workloads need`);
}

function withShortfalls(line: string, result: ReviewResult): string {
  const short = shortfalls(result);
  return short.length === 0 ? line : `${line} ⚠️ ${short.join('; ')}.`;
}

/** Sharing more finely buys nothing: say what grew without calling it a cut. */
function sharingLine(shared: readonly FactorChange[], short: boolean): string {
  const first = itemAt(shared, 0, 'called with sharing changes only');
  const more = shared.length > 1 ? ` and ${shared.length - 1} more sharing profile${shared.length === 2 ? '' : 's'}` : '';
  const what = `${md(first.name)}: each GPU advertised as ${first.after}, was ${first.before}${more}`;
  return short
    ? `⚠️ **No new GPUs, but a cut is below the need**: GPU sharing changed (${what}).`
    : `✅ **No new GPUs**: only GPU sharing changed (${what}); the hardware stays as it is.`;
}

/** The levers the growing changes' verdicts rest on, each once, in the order they first appear. */
function combined(result: ReviewResult): Lever[] {
  const out: Lever[] = [];
  for (const r of result.reviews) if (gpusAskedBy(r) > 0) for (const l of r.combination?.levers ?? []) if (!out.includes(l)) out.push(l);
  return out;
}

/** With no lever: keep what is there, named by its model when the PR swaps it (`keep the 8 T4 GPUs`). */
function keepLever(review: ChangeReview | undefined): string {
  if (review === undefined) return 'keep the current GPUs';
  const swap = review.modelSwap?.asks === true ? ` ${md(review.modelSwap.modelBefore)}` : '';
  return `keep the ${review.change.gpusBefore}${swap} GPUs`;
}

function firstGrowing(result: ReviewResult): ChangeReview | undefined {
  return result.reviews.find((r) => gpusAskedBy(r) > 0);
}

/** The one line a reviewer reads first: verdict, what is asked, and what to do instead. */
export function headline(result: ReviewResult): string {
  return result.verdict === 'no-gpu-change' ? verdictLine(result) : withShortfalls(verdictLine(result), result);
}

function verdictLine(result: ReviewResult): string {
  const { verdict, gpusNeeded } = result;
  const title = `${VERDICT_ICON[verdict]} **${VERDICT_TITLE[verdict]}**`;
  switch (verdict) {
    case 'no-gpu-change': {
      // A file read only in part may hide a change: the headline must not sound surer than that.
      const problems = result.diagnostics.filter((d) => d.severity !== 'info').length;
      if (problems === 0) return `${title}: this pull request changes no GPU capacity.`;
      return `${title} found, with ${problems === 1 ? 'a warning' : `${problems} warnings`} about the files (below): read ${problems === 1 ? 'it' : 'them'} before taking this as no change.`;
    }
    case 'insufficient-evidence': {
      const notFollowed = (result.coverage ?? []).filter((c) => c.state === 'not-followed');
      if (result.gpusRequested === 0 && notFollowed[0]) {
        // No GPUs asked for on the files read; saying "+0 requested" would sound like a pass.
        const more = notFollowed.length > 1 ? ` and ${notFollowed.length - 1} more` : '';
        return `${title}: ${md(notFollowed[0].file)}${more} could change GPU capacity in ways this review did not follow (below).`;
      }
      const first = result.missingEvidence[0];
      return `${title}: ${requested(result)}; missing: ${first ? md(missingWords(first).what, MAX_SENTENCE) : 'the evidence to judge it'}.`;
    }
    case 'not-justified': {
      const lever = instead(result.findings, combined(result)) ?? keepLever(firstGrowing(result));
      return `${title}: ${requested(result)}, 0 to add. **Instead:** ${lever}.`;
    }
    case 'partially-justified': {
      const lever = instead(result.findings, combined(result));
      const ask = gpusNeeded === null ? 'ask for what is needed' : `ask for +${gpusNeeded}`;
      const add = gpusNeeded === null ? 'GPUs to add unknown' : `+${gpusNeeded} to add`;
      return `${title}: ${requested(result)}, ${add}. **Instead:** ${ask}${lever ? `; ${lowerFirst(lever)}` : ''}.`;
    }
    case 'justified': {
      if (result.gpusRequested === 0) {
        const shared = sharedMore(result.changes);
        if (shared.length > 0) return sharingLine(shared, shortfalls(result).length > 0);
        const swapped = swapLine(result.reviews, shortfalls(result).length > 0);
        if (swapped !== null) return swapped;
        // "Lowered" only when some count fell: a change of nothing that asks is no cut.
        if (!result.changes.some((c) => c.delta < 0)) return '✅ **No new GPUs**: nothing to justify.';
        return shortfalls(result).length > 0
          ? '⚠️ **GPU capacity lowered**: nothing to justify, but the cut is below the need.'
          : '✅ **GPU capacity lowered**: nothing to justify.';
      }
      const why = bound(result);
      return `${title}: ${requested(result)}, +${gpusNeeded ?? result.gpusRequested} to add${why ? `; ${why}` : ''}.`;
    }
  }
}
