import type { ChangeReview, Finding, ReviewResult } from '../domain/index.js';
import { requestedMonthlyUsd, usd } from './cost.js';
import { MAX_SENTENCE, md } from './escape.js';
import { VERDICT_ICON, VERDICT_TITLE } from './verdict-text.js';

/** `+6 GPUs (+$5,256/month) requested`: the cost only when every growing change is priced. */
function requested(result: ReviewResult): string {
  const cost = requestedMonthlyUsd(result.changes);
  return `+${result.gpusRequested} GPUs${cost === null ? '' : ` (${usd(cost, true)}/month)`} requested`;
}

/** The lever to name first: one that meets the need, else the one freeing most GPUs. */
function bestLever(findings: Finding[]): Finding | null {
  const meets = findings.find((f) => f.meetsNeed);
  if (meets) return meets;
  const freeing = findings.filter((f) => f.gpusFreed > 0).sort((a, b) => b.gpusFreed - a.gpusFreed);
  return freeing[0] ?? null;
}

/** Why no lever reaches: the planner's proven bound for the first growing change that has one. */
function bound(result: ReviewResult): string | null {
  const review = result.reviews.find((r) => r.change.delta > 0 && r.verdict === 'justified');
  if (!review) return null;
  const plan = review.plan;
  if (!plan || plan.schedule.length === 0) return md(review.reason, MAX_SENTENCE);
  const need = review.need !== null && review.need !== plan.lowerBound ? `; with headroom and services the need is ${review.need}` : '';
  return `no lever reaches: no schedule meeting every deadline uses fewer than ${plan.lowerBound} GPUs (${md(plan.boundReason, MAX_SENTENCE)})${need}`;
}

/** `Stagger the runs` → `stagger the runs`, for a sentence continued after a semicolon. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function firstGrowing(result: ReviewResult): ChangeReview | undefined {
  return result.reviews.find((r) => r.change.delta > 0);
}

/** The one line a reviewer reads first: verdict, what is asked, and what to do instead. */
export function headline(result: ReviewResult): string {
  const { verdict, gpusNeeded } = result;
  const title = `${VERDICT_ICON[verdict]} **${VERDICT_TITLE[verdict]}**`;
  switch (verdict) {
    case 'no-gpu-change':
      return `${title}: this pull request changes no GPU capacity.`;
    case 'insufficient-evidence': {
      const first = result.missingEvidence[0];
      return `${title}: ${requested(result)}; missing: ${first ? md(first.what, MAX_SENTENCE) : 'the evidence to judge it'}.`;
    }
    case 'not-justified': {
      const lever = bestLever(result.findings);
      const instead = lever ? md(lever.summary, MAX_SENTENCE) : `keep the ${firstGrowing(result)?.change.gpusBefore ?? 'current'} GPUs`;
      return `${title}: ${requested(result)}, 0 needed. **Instead:** ${instead}.`;
    }
    case 'partially-justified': {
      const lever = bestLever(result.findings);
      const ask = gpusNeeded === null ? 'ask for what is needed' : `ask for +${gpusNeeded}`;
      return `${title}: ${requested(result)}, ${gpusNeeded ?? '?'} needed. **Instead:** ${ask}${lever ? `; ${lowerFirst(md(lever.summary, MAX_SENTENCE))}` : ''}.`;
    }
    case 'justified': {
      if (result.gpusRequested === 0) return `✅ **GPU capacity lowered**: nothing to justify.`;
      const why = bound(result);
      return `${title}: ${requested(result)} and needed${why ? `; ${why}` : ''}.`;
    }
  }
}
