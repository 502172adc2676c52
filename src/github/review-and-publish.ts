import type { Mode } from '../domain/policy.js';
import { redactSecrets, redactor } from '../util/redact.js';
import type { ReviewResult } from '../domain/review.js';
import { fail, ok } from '../domain/result.js';
import type { Result } from '../domain/result.js';
import { noteCommentUnposted, renderCheck, renderFailedCheck } from '../report/index.js';
import type { CheckOutput } from '../report/index.js';
import { COMMENT_MARKER, renderComment } from '../report/index.js';
import type { LoadedPolicy } from '../review/index.js';
import type { Logger, PullRequestTarget } from './api/index.js';
import { readCodeOwners } from './api/index.js';
import { describeFailure } from './api/index.js';
import { applyLapseToCheck, applyLapseToComment } from './overrides/index.js';
import type { Lapse } from './overrides/index.js';
import { applyOverrideToCheck, applyOverrideToComment, demandApprovable, notCovered, readOverride } from './overrides/index.js';
import type { OverrideRecord, StateTrust } from './overrides/index.js';
import { overrideInForce } from './overrides/index.js';
import type { OverrideGrant } from './overrides/index.js';
import { reviewedState } from './overrides/index.js';
import { readShown, shownMarker } from './overrides/index.js';
import type { StateKey } from './overrides/index.js';
import { adaptCheckOutput } from './publish/index.js';
import type { Instance } from './publish/index.js';
import { postOverridden, postPlain } from './publish/index.js';
import type { Posting, Rendered } from './publish/index.js';
import type { ReviewCheck, ReviewPublisher } from './publish/index.js';
import { WriteBudgetExceededError } from './publish/index.js';
import type { PullNow, ReviewReads } from './review-reads.js';

/** Pause before concluding again a check GitHub would not conclude for a reason other than its rate. */
const CONCLUDE_AGAIN_MS = 5000;

/** One review of one pull request at one head commit: where it reads, and where it publishes. */
export interface ReviewAndPublish {
  log: Logger;
  target: PullRequestTarget;
  reads: ReviewReads;
  publisher: ReviewPublisher;
  /** An override already authorised; recorded when the check does not pass on its own. */
  grant?: OverrideGrant | undefined;
  /** Signs and checks the state our comment carries; null: none is trusted. */
  stateKey: StateKey | null;
  /** Whose comment, suggestions and check run these are. */
  instance: Instance;
  /** Whether the caller runs this review again for a failure: then thrown, the check left to that run. */
  retry?: ((err: unknown) => boolean) | undefined;
}

export interface ReviewOutcome {
  /** Null when the review could not run (the check says why). */
  result: ReviewResult | null;
  /** The check's conclusion before any override. */
  conclusion: CheckOutput['conclusion'];
  /** The override in force after this review, new or kept. */
  override: OverrideRecord | null;
  /** Why a grant asked for was not recorded; null otherwise. */
  refused: string | null;
}

/**
 * Reads, judges, renders and publishes one review: the check concluded (or in progress first,
 * when the review runs long, as the publisher's check decides). Whatever fails, the check is
 * concluded; the failure is logged, not rethrown, once the check says so. A conclusion once
 * computed is the one the check gets: a write that fails after it (the comment, suggestions) is
 * logged, never turned into a softer conclusion.
 */
export async function reviewAndPublish(run: ReviewAndPublish): Promise<ReviewOutcome> {
  const { log, target, reads, publisher, instance } = run;
  const check = publisher.check;
  const pr = { repo: `${target.base.owner}/${target.base.repo}`, number: target.number, headSha: target.headSha };
  // What is known when something fails: the policy's mode, and the conclusion the review reached.
  let mode: Mode | null = null;
  let computed: { result: ReviewResult; output: CheckOutput } | null = null;
  const onPolicy = (loaded: LoadedPolicy): void => {
    // An invalid policy is judged as enforce (see runReview): so is a failure after reading it.
    mode = loaded.diagnostics.some((d) => d.severity === 'error') ? 'enforce' : loaded.policy.mode;
  };
  // Our comment does not depend on the files: read beside the file list.
  const comment = settle(reads.self().then((author) => publisher.findComment(author)));
  // The pull request as GitHub has it now (has the head moved?), read as late as the comment's
  // write allows: beside the check's conclusion, and only when a comment may be written.
  const pullReads: { pending: Promise<Settled<PullNow>> | null } = { pending: null };
  const readPull = (): Promise<Settled<PullNow>> => (pullReads.pending ??= settle(reads.pull()));
  const analysing = settle(reads.judge(onPolicy));
  try {
    const { changes, policy, result } = unsettle(await analysing);
    const author = await reads.self();
    const trust: StateTrust = { key: run.stateKey, scope: { repo: pr.repo, number: target.number } };
    const found = unsettle(await comment);
    const current = async (): Promise<boolean> => unsettle(await readPull()).headSha === target.headSha;
    // Everything the review judged, whole: what a grant binds to.
    const state = reviewedState(result, policy, trust.key);
    const shown = readShown(found, trust);
    const shownState = shownMarker({ headSha: target.headSha, state }, shown, trust);
    // An override our comment carried that this review no longer falls under, said where it is read.
    let lapse: Lapse | null = null;
    const render = (override: OverrideRecord | null): Rendered => {
      const plain = withShown(
        // What GitHub shows carries no secret of the process, in any encoding, whatever echoed it.
        redactSecrets(
          renderComment(result, {
            ...(target.headUrl === undefined ? {} : { headUrl: target.headUrl }),
            ...(target.draft ? { draft: true } : {}),
          }),
        ),
        shownState,
        instance.commentMarker,
      );
      const shownLapse = override === null ? lapse : null;
      const body = override ? applyOverrideToComment(plain, override) : shownLapse ? applyLapseToComment(plain, shownLapse, state) : plain;
      const output = adaptCheckOutput(renderCheck(result, body), policy.diagnostics);
      const applied = override
        ? applyOverrideToCheck(output, override)
        : shownLapse
          ? applyLapseToCheck(output, shownLapse, state)
          : output;
      return { body, output: redactor().redactDeep(applied) };
    };
    const plain = render(null).output;
    computed = { result, output: plain };
    const decision = overrideInForce({
      grant: run.grant,
      commentBody: found?.body ?? null,
      shown,
      state,
      demandApprovable: demandApprovable(result),
      output: plain,
      headSha: target.headSha,
      trust,
      now: new Date(),
    });
    if (decision.unverified > 0) log.warn({ pr, records: decision.unverified }, 'override record failed verification; ignored');
    if (decision.refused) log.info({ pr, why: decision.refused }, 'override not bound to the reviewed state');
    lapse = decision.lapsed;
    if (decision.lapsed) {
      const { record, news } = decision.lapsed;
      log.info(
        { pr, by: record.by, news: news === 'unknown' ? 'unknown' : news.length },
        'override lapsed: the review holds what it was not granted for',
      );
    }
    const granted = run.grant !== undefined && decision.override !== null && decision.override.commentId === run.grant.commentId;
    let known = decision.override;
    let revoked: number | null = null;
    if (known && !granted) {
      // A carried override holds only while its grantor may still grant it: a role or team
      // membership taken away since ends it, whatever the comment records.
      const policyNow = policy.policy.overrides;
      const pull = unsettle(await readPull());
      const now = await reads.mayOverride({
        login: known.by,
        author: pull.author,
        policy: policyNow,
        unreadPolicy: policy.unread,
        catalog: { path: policy.policy.catalog, codeOwners: () => readCodeOwners(changes.base) },
      });
      // An approval of declared demand does not become an override: a grantor now only a code owner keeps no override.
      const narrowed = now.allowed && now.scope === 'demand' && known.scope !== 'demand';
      // Nor does it outlive the command that granted it: deleted or edited, it grants nothing.
      const gone = narrowed
        ? 'its grantor may now approve only the demand this pull request declares in the catalog'
        : now.allowed
          ? await reads.commandNoLongerStands(known)
          : now.why;
      if (!now.allowed) log.info({ pr, by: known.by, why: now.why }, 'override dropped: its grantor may no longer override');
      else if (gone)
        log.info({ pr, by: known.by, commentId: known.commentId, why: gone }, 'override dropped: its command no longer stands');
      if (gone) {
        revoked = known.commentId;
        lapse = { record: known, why: gone };
        known = null;
      }
    }
    const adopt = (body: string): OverrideRecord | null => {
      const reading = readOverride(body, trust);
      if (reading.kind !== 'verified' || reading.record.commentId === revoked) return null;
      if (reading.record.scope === 'demand' && !demandApprovable(result)) return null;
      const news = notCovered(reading.record, state);
      return news !== 'unknown' && news.length === 0 ? reading.record : null;
    };
    // The check belongs to the reviewed commit, so it concludes with that commit's result even
    // when the head moved; see post-review.ts for the order of comment and check.
    const posting: Posting = {
      publisher,
      log,
      target,
      result,
      changes,
      render,
      current,
      headIsCurrent: async () => (await reads.pull()).headSha === target.headSha,
      granted,
      author,
      adopt,
      when: policy.policy.comment,
      asked: run.grant !== undefined,
      instance,
    };
    const override = known ? await postOverridden(posting, known, found) : await postPlain(posting, found);
    return { result, conclusion: plain.conclusion, override, refused: decision.refused };
  } catch (err) {
    const reason = describeFailure(err);
    if (computed && check.concluded !== null) {
      // The check already says what the review found; only a later write (the comment) failed.
      log.error({ err: reason, pr, conclusion: check.concluded }, 'review concluded, but posting the rest failed');
      if (check.concluded === computed.output.conclusion) await noteUnposted(check, computed.output, reason, log);
      return { result: computed.result, conclusion: computed.output.conclusion, override: null, refused: null };
    }
    if (run.retry?.(err)) {
      // Tried again by the queue: that run adopts this check (created in progress or not yet).
      check.abandon();
      log.warn({ err: reason, pr }, 'review failed; to be tried again');
      throw err;
    }
    log.error({ err: reason, pr }, 'review failed');
    // A review that reached a verdict concludes with it, never with the softer "could not run".
    const output = computed ? computed.output : renderFailedCheck(reason, mode);
    try {
      await check.complete(output);
    } catch (concludeErr) {
      // Never left in progress: tried again later, when the rate limit lifts or after a pause.
      const limited = concludeErr instanceof WriteBudgetExceededError;
      const at = limited ? concludeErr.retryAt : Date.now() + CONCLUDE_AGAIN_MS;
      check.concludeLater(output, at, log);
      log.warn({ pr, err: describeFailure(concludeErr), retryAt: new Date(at).toISOString() }, 'check run to be concluded later');
      // A rate limit is waited out; anything else also marks the delivery failed, for Probot to record.
      if (!limited) throw concludeErr;
    }
    return computed
      ? { result: computed.result, conclusion: computed.output.conclusion, override: null, refused: null }
      : { result: null, conclusion: output.conclusion, override: null, refused: null };
  }
}

/** A promise's outcome as data: its value, or what it was rejected with. */
type Settled<T> = Result<T, unknown>;

/** A promise that never rejects, so work begun before it is awaited cannot fail unhandled. */
function settle<T>(pending: Promise<T>): Promise<Settled<T>> {
  return pending.then(
    (value) => ok(value),
    (err: unknown) => fail(err),
  );
}

function unsettle<T>(settled: Settled<T>): T {
  if (settled.ok) return settled.value;
  throw settled.error;
}

/** Says on the check, its conclusion unchanged, that the comment could not be posted. Best effort. */
async function noteUnposted(check: ReviewCheck, output: CheckOutput, reason: string, log: Logger): Promise<void> {
  try {
    await check.rewriteText(noteCommentUnposted(output, reason));
  } catch (err) {
    log.warn({ err: describeFailure(err) }, 'could not note on the check that the comment was not posted');
  }
}

/**
 * Our comment under this instance's marker, with the signed record of what it shows right after
 * the marker.
 */
function withShown(body: string, shown: string, marker: string): string {
  return body.replace(COMMENT_MARKER, () => (shown === '' ? marker : `${marker}\n${shown}`));
}
