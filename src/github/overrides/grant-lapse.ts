import type { CheckOutput } from '../../report/index.js';
import { code, md, prose } from '../../report/index.js';
import { missingWords } from '../../report/index.js';
import { notFollowedEvidence } from '../../report/index.js';
import { num } from '../../report/index.js';
import type { OverrideRecord } from './override.js';
import { grantedFor, summaryFrom } from './reviewed-state.js';
import { NO_LIMIT } from './state-terms.js';
import type { TermItem } from './state-terms.js';
import type { ReviewedState, StateEntry, StateSummary, TermSite } from './reviewed-state.js';

/**
 * A genuine override this review no longer falls under: what is new since it was granted (`news`;
 * `unknown` when the record cannot say), or why it no longer stands (`why`: its grantor may no
 * longer override, its command comment is gone).
 */
export type Lapse = GrantOutgrown | { record: OverrideRecord; why: string };

export interface GrantOutgrown {
  record: OverrideRecord;
  news: StateEntry[] | 'unknown';
}

/** New things named before the rest is counted. */
const MAX_NAMED = 5;

/**
 * What is new, in words: one phrase per entry, the first few named. `prior` is the state it is new
 * against, `priorWord` what happened to it (`granted`, `shown`).
 */
export function describeNew(news: StateEntry[] | 'unknown', prior: StateSummary, state: ReviewedState, priorWord: string): string {
  if (news === 'unknown') return `what the review covers changed (what was ${priorWord} is not recorded entry by entry)`;
  const named = news.slice(0, MAX_NAMED).map((e) => phrase(e, grantedFor(prior, state, e), priorWord));
  const more = news.length > MAX_NAMED ? `; and ${news.length - MAX_NAMED} more` : '';
  return `${named.join('; ')}${more}`;
}

function phrase(entry: StateEntry, was: { after: number } | null, priorWord: string): string {
  switch (entry.kind) {
    case 'change': {
      const c = entry.change;
      const where = `${code(c.name)} (${c.kind}, ${code(c.file)})`;
      return was
        ? `${where} now ${num(c.gpusBefore)} → ${num(c.gpusAfter)} GPUs, beyond the ${num(was.after)} ${priorWord}`
        : `a new GPU change: ${where} ${num(c.gpusBefore)} → ${num(c.gpusAfter)} GPUs`;
    }
    case 'part': {
      const c = entry.change;
      const where = `${code(c.name)} (${c.kind}, ${code(c.file)}) in ${code(entry.part.label)} (${code(entry.part.resource)})`;
      const counts = `${num(entry.before)} → ${num(entry.part.gpus)} GPUs`;
      return was
        ? `${where} now ${counts}, beyond the ${num(was.after)} ${priorWord}`
        : `GPUs where none were ${priorWord}: ${where} ${counts}`;
    }
    case 'term':
      return termPhrase(entry.where, entry.item, was, priorWord, entry.change === undefined);
    case 'not-followed': {
      const first = entry.coverage.notFollowed?.[0];
      const what = first ? `: missing ${md(notFollowedEvidence(first).what, 200)}` : '';
      return `${code(entry.coverage.file)} is not followed${what}`;
    }
    case 'missing':
      return `missing evidence: ${prose(missingWords(entry.missing).what, 200)}`;
    case 'policy':
      return 'the policy that judges this pull request changed';
  }
}

/** A term of a change the grant did not show as it is now: a cohort, a limit, sharing. */
function termPhrase(c: TermSite, item: TermItem, was: { after: number } | null, priorWord: string, member: boolean): string {
  const where = `${code(c.name)} (${c.kind}, ${code(c.file)})`;
  const t = item.term;
  switch (t.term) {
    case 'cohort':
      // A queue whose count did not change matters by what it lends the cohort's changed queues.
      return member
        ? `${where} now in cohort ${code(t.cohort)}, which was not ${priorWord}: the other queues of that cohort may borrow its GPUs`
        : `${where} now in cohort ${code(t.cohort)}, which was not ${priorWord}: it may borrow GPUs from its queues`;
    case 'borrowing':
    case 'lending': {
      const flavor = t.part === null ? '' : ` in ${code(t.part.label)} (${code(t.part.resource)})`;
      const what = t.term === 'borrowing' ? 'may borrow from its cohort' : 'lends its cohort';
      const now = t.limit === null ? `with no limit` : `up to ${num(t.limit)} GPUs`;
      const before = was === null ? `a limit not ${priorWord}` : `the ${was.after >= NO_LIMIT ? 'no limit' : num(was.after)} ${priorWord}`;
      return `${where}${flavor} now ${what} ${now}, beyond ${before}`;
    }
    case 'sharing':
      return t.factor === null
        ? `${where} now shares its GPUs in a way the review cannot count, which was not ${priorWord}`
        : `${where} now advertises each GPU ${num(t.factor)} times (${code(t.mode)}), beyond ${was === null ? `what was ${priorWord}` : `the ${num(was.after)} ${priorWord}`}`;
  }
}

/** The lapse as one paragraph: whose grant, for which head, and what is new. */
function lapseLine(lapse: Lapse, state: ReviewedState): string {
  const { record } = lapse;
  const why =
    'news' in lapse
      ? `this review holds what it was not granted for — ${describeNew(lapse.news, summaryFrom(record.fingerprint, record.state), state, 'granted')}`
      : prose(lapse.why, 300);
  return (
    `**The override by @${md(record.by)} for head \`${record.headSha.slice(0, 12)}\` lapsed**: ${why}. ` +
    'An authorised reviewer who has read this review may override again.'
  );
}

/** The check saying why the override it carried no longer applies, its conclusion unchanged. */
export function applyLapseToCheck(output: CheckOutput, lapse: Lapse, state: ReviewedState): CheckOutput {
  return {
    ...output,
    title: `Override lapsed: ${output.title}`.slice(0, 255),
    summary: `${lapseLine(lapse, state)}\n\n${output.summary}`,
  };
}

/** The comment with the lapse shown under the headline. */
export function applyLapseToComment(body: string, lapse: Lapse, state: ReviewedState): string {
  const section = `> [!WARNING]\n> ${lapseLine(lapse, state)}`;
  const lines = body.split('\n');
  const headline = lines.findIndex((l) => l.startsWith('### '));
  if (headline < 0) return `${section}\n\n${body}`;
  lines.splice(headline + 1, 0, '', section);
  return lines.join('\n');
}
