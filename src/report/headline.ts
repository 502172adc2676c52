import type { ReviewResult } from '../domain/index.js';
import { MAX_SENTENCE, md } from './escape.js';
import { VERDICT_ICON, VERDICT_TITLE } from './verdict-text.js';

/** The one sentence a reviewer reads first. */
export function headline(result: ReviewResult): string {
  const { verdict, gpusRequested, gpusNeeded } = result;
  const title = `${VERDICT_ICON[verdict]} **${VERDICT_TITLE[verdict]}**`;
  switch (verdict) {
    case 'no-gpu-change':
      return `${title}: this pull request changes no GPU capacity.`;
    case 'insufficient-evidence': {
      const first = result.missingEvidence[0];
      return `${title}: +${gpusRequested} GPUs requested${first ? `; missing: ${md(first.what, MAX_SENTENCE)}` : ''}.`;
    }
    case 'not-justified': {
      const lever = result.findings.find((f) => f.meetsNeed);
      return `${title}: +${gpusRequested} GPUs requested, 0 needed.${lever ? ` Instead: ${md(lever.summary, MAX_SENTENCE)}.` : ''}`;
    }
    case 'partially-justified':
      return `${title}: +${gpusRequested} GPUs requested, ${gpusNeeded ?? '?'} needed.`;
    case 'justified': {
      if (gpusRequested === 0) return `✅ **GPU capacity lowered**: nothing to justify.`;
      const reason = result.reviews.find((r) => r.change.delta > 0)?.reason;
      return `${title}: +${gpusRequested} GPUs requested and needed${reason ? ` — ${md(reason, MAX_SENTENCE)}` : ''}.`;
    }
  }
}
