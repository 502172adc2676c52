import type { CommentWhen } from '../../domain/policy.js';
import type { ReviewResult } from '../../domain/review.js';
import type { CheckOutput } from '../../report/index.js';
import type { ChangeSet } from '../../domain/files.js';
import type { Logger, PullRequestTarget } from '../api/index.js';
import type { CommentOutcome, MarkedComment } from './comment-poster.js';
import { describeFailure } from '../api/index.js';
import type { Instance } from './instance.js';
import { overridable } from '../overrides/index.js';
import type { OverrideRecord } from '../overrides/index.js';
import type { ReviewPublisher } from './publisher.js';
import { planSuggestions, SUGGESTION_MARKER } from './suggestions.js';

/**
 * Posting a review's comment and concluding its check so that an accepted override survives
 * another replica reviewing the same head at the same moment. GitHub has no compare-and-swap for
 * comments, so the order of reads and writes does the work:
 *
 * - A review carrying an override writes the comment recording it, then concludes its check.
 * - A plain review whose check does not pass concludes it, then reads our comment again and
 *   writes it. An override written before that read is adopted: kept in the comment, and our
 *   check concluded again with it. One written after that read is concluded after our check. So
 *   the check concluded last on the head carries the override either way.
 * - A plain review that found no comment of ours before creates one without that read: a comment
 *   written meanwhile (an override's) is older than ours, so the check after creating finds it,
 *   keeps it as the survivor with the override adopted, and concludes our check again.
 * - The plain write, sent as soon as that read answers, can still land over an override written
 *   in between. The granting review reads the comment once more after concluding and, finding the
 *   override gone, writes it again and concludes its check again.
 *
 * What remains: a plain write delayed past all of the grant's comment write, suggestions,
 * conclusion and last read leaves the comment without the override. The check concluded last
 * still passes with it, but the plain review's own run stays failing and later reviews no longer
 * find the override. Between a plain review's first conclusion and its adopting one, the newest
 * conclusion on the head fails for a moment.
 */

export interface Rendered {
  body: string;
  output: CheckOutput;
}

/** One review's result on its way to the pull request. */
export interface Posting {
  /** Where the check, the comment and the suggestions are written. */
  publisher: ReviewPublisher;
  log: Logger;
  target: PullRequestTarget;
  result: ReviewResult;
  changes: ChangeSet;
  /** The comment and the check with an override applied, or with none. */
  render: (override: OverrideRecord | null) => Rendered;
  /** Whether the reviewed commit is still the head (read once): only then is the comment written. */
  current: () => Promise<boolean>;
  /** Whether it is still the head, asked afresh. */
  headIsCurrent: () => Promise<boolean>;
  /** An override granted by this review (a command), rather than carried from our comment. */
  granted: boolean;
  /** Our own login: only comments under it are ours. */
  author: string;
  /** The override a comment's text records, when its signature holds and it still applies. */
  adopt: (body: string) => OverrideRecord | null;
  /** The base policy's `comment`: when a review without an override may create our comment. */
  when: CommentWhen;
  /** An override was asked for (a command), granted or not. */
  asked: boolean;
  /** Whose comment and suggestions these are: their markers. */
  instance: Instance;
}

/** Comment first, then the check that relies on it; a new grant is then made sure of. */
export async function postOverridden(p: Posting, override: OverrideRecord, found: MarkedComment | null): Promise<OverrideRecord> {
  const rendered = p.render(override);
  const current = await p.current();
  if (current) {
    const outcome = await post(p, rendered.body, override, found);
    await postSuggestions(p, found !== null || outcome === 'merged');
  } else headMoved(p);
  await p.publisher.check.complete(rendered.output);
  if (p.granted && current) await keepGrant(p, rendered);
  return override;
}

/** Check first, then a fresh read of our comment, then the comment, adopting an override found there. */
export async function postPlain(p: Posting, found: MarkedComment | null): Promise<OverrideRecord | null> {
  const plain = p.render(null);
  const creates = found === null && worthNewComment(p);
  // Whether the head moved is asked beside the conclusion, and only when a comment may be written.
  const current = found !== null || creates || overridable(plain.output) ? p.current() : null;
  current?.catch(() => undefined);
  await p.publisher.check.complete(plain.output);
  if (current === null) return null;
  if (!(await current)) {
    headMoved(p);
    return null;
  }
  if (!overridable(plain.output)) {
    // A passing check has nothing an override could change: the comment read before will do.
    const outcome = await post(p, plain.body, null, found);
    await postSuggestions(p, found !== null || outcome === 'merged');
    return null;
  }

  // A first review creates its comment: the check after creating stands for the fresh read (above).
  const existing = creates ? null : await p.publisher.findComment(p.author);
  // An override in the comment about to be replaced is kept, and our check concluded again with
  // it: in ours as just read, or in an older copy another replica created at the same moment as
  // ours, seen only once ours is created.
  const adopted: { override: OverrideRecord | null } = { override: null };
  const merge = (theirs: string): string => {
    adopted.override = p.adopt(theirs);
    return adopted.override ? p.render(adopted.override).body : plain.body;
  };
  const outcome = await post(p, plain.body, null, existing, merge);
  if (adopted.override) {
    await p.publisher.check.revise(p.render(adopted.override).output);
    p.log.info({ number: p.target.number, headSha: p.target.headSha }, 'override adopted from a concurrent review');
  }
  await postSuggestions(p, existing !== null || outcome === 'merged');
  return adopted.override;
}

/**
 * After concluding, a granting review reads our comment once more: a plain review that read it
 * before the grant was written may have written over it since. The override is then written again
 * and the check concluded again, so it is also the last conclusion. Best effort: the grant is
 * already recorded and concluded, so a failure here is logged, not turned into a failed check.
 */
async function keepGrant(p: Posting, rendered: Rendered): Promise<void> {
  const { publisher, log, target } = p;
  try {
    const now = await publisher.findComment(p.author);
    if (now && p.adopt(now.body)) return;
    if (!(await p.headIsCurrent())) return;
    await publisher.writeComment({
      author: p.author,
      body: rendered.body,
      createIfAbsent: true,
      existing: now,
      stillCurrent: p.headIsCurrent,
    });
    await p.publisher.check.revise(rendered.output);
    log.info({ number: target.number, headSha: target.headSha }, 'override written again over a concurrent review');
  } catch (err) {
    log.warn({ err: describeFailure(err), number: target.number }, 'could not make sure the override was kept');
  }
}

async function post(
  p: Posting,
  body: string,
  override: OverrideRecord | null,
  existing: MarkedComment | null,
  merge?: (theirs: string) => string,
): Promise<CommentOutcome> {
  const { log, target, result } = p;
  const outcome = await p.publisher.writeComment({
    author: p.author,
    body,
    createIfAbsent: worthNewComment(p) || override !== null,
    existing,
    // Asked only when another replica's comment won a creation race, before writing over it.
    stillCurrent: p.headIsCurrent,
    ...(merge ? { merge } : {}),
  });
  const pr = { repo: `${target.base.owner}/${target.base.repo}`, number: target.number, headSha: target.headSha };
  log.info({ pr, verdict: result.verdict, comment: outcome, overridden: override !== null }, 'review posted');
  return outcome;
}

function headMoved({ log, target, result }: Posting): void {
  // A newer push has its own review coming; this result must not replace it.
  log.info({ number: target.number, headSha: target.headSha, verdict: result.verdict }, 'head moved; comment not posted');
}

/**
 * Suggested changes are a convenience: failing to post them never fails the review. Without an
 * earlier review (no comment of ours before this one) there are no earlier suggestions to replace,
 * so they are not listed; copies a race or a deleted comment leaves are removed by the next review.
 */
async function postSuggestions(
  { publisher, log, target, result, changes, when, instance }: Posting,
  reviewedBefore: boolean,
): Promise<void> {
  try {
    // `never` posts no suggestion either; copies an earlier policy left are removed.
    const planned = when === 'never' ? [] : await planSuggestions(result, changes.head);
    const marker = instance.suggestionMarker;
    const wanted = planned.map((s) => ({ ...s, body: s.body.replace(SUGGESTION_MARKER, () => marker) }));
    if (wanted.length === 0 && !reviewedBefore) return;
    const outcome = await publisher.syncSuggestions(wanted, reviewedBefore);
    if (outcome.created + outcome.deleted > 0) log.info({ number: target.number, ...outcome }, 'suggestions updated');
  } catch (err) {
    log.warn({ err: describeFailure(err), number: target.number }, 'could not update suggested changes');
  }
}

/**
 * Whether a review may create our comment (one already there is always kept up to date, so it
 * never shows a stale verdict or loses a grant it records). By default most pull requests touch
 * no GPUs and deserve no comment; one whose capacity files could not be read does, so the author
 * learns why. `never` leaves the check alone: a comment is then created only for an override,
 * which lives in it and binds to the review it shows. A command asking for one before any
 * review was shown is refused (override-decision.ts) and the comment created, so the grantor
 * reads what they approve and sends the command again.
 */
function worthNewComment({ when, result, asked }: Posting): boolean {
  if (when === 'never') return asked;
  if (when === 'always') return true;
  return result.verdict !== 'no-gpu-change' || result.diagnostics.some((d) => d.severity !== 'info');
}
