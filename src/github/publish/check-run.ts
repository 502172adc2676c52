import { redactor } from '../../util/redact.js';
import { closeIsolates } from '../../domain/visible.js';
import { capAnnotations } from '../../report/index.js';
import type { CheckAnnotation, CheckOutput } from '../../report/index.js';
import type { GitHubClient, Logger, RepoRef } from '../api/index.js';
import { describeFailure } from '../api/index.js';
import { WriteBudgetExceededError } from './write-budget.js';

export const CHECK_NAME = 'gpu-justify';

/** GitHub takes at most 50 annotations per check-run request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/**
 * Annotations a run carries at most: one request's worth, the most important first
 * (report/annotation-cap.ts), the rest counted in the summary. A review of thousands of changes
 * then makes at most four check-run requests (created in progress, concluded, revised with an
 * override, its text rewritten when the comment failed) instead of one per 50 annotations.
 */
const MAX_ANNOTATIONS = ANNOTATIONS_PER_REQUEST;

/** How a run is found again by a later attempt of the same job (work/queue.ts). */
export interface RunIdentity {
  /** Set as the run's `external_id`. */
  externalId: string;
  /** An earlier attempt may have created the run: adopt it rather than create another. */
  resume: boolean;
}

/** GitHub's limit on a check run's summary and text. */
const MAX_OUTPUT_CHARS = 65_535;

/** Times a conclusion GitHub would not take within the write budget is tried again later. */
const LATER_ATTEMPTS = 5;

/** How long a review may run before its check is created in progress: under it, one write creates it concluded. */
const DEFAULT_IN_PROGRESS_AFTER_SECONDS = 10;

/** The operator's delay: `GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS`, a number of seconds, else the default. */
export function inProgressAfterSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env['GPU_JUSTIFY_CHECK_IN_PROGRESS_AFTER_SECONDS'];
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_IN_PROGRESS_AFTER_SECONDS;
}

/**
 * The check run of one review on the head commit. Created in progress at once (`start`), or
 * (`deferred`) only once the review has run for a while: a review that reaches its verdict first
 * creates the run already concluded, one write instead of two.
 */
export class CheckRun {
  /** The conclusion GitHub last accepted for this run; null while it is in progress or not created. */
  concluded: CheckOutput['conclusion'] | null = null;
  /** The run's id once GitHub created it; the creation in flight, if any. */
  #id: number | null = null;
  #creating: Promise<number> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The search for a run an earlier attempt created, once started. */
  #adopting: Promise<void> | null = null;

  private constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    private readonly headSha: string,
    private readonly identity: RunIdentity | null = null,
    private readonly name: string = CHECK_NAME,
  ) {}

  /** Created in progress now: resolves once GitHub has it. */
  static async start(octokit: GitHubClient, repo: RepoRef, headSha: string): Promise<CheckRun> {
    const run = new CheckRun(octokit, repo, headSha);
    await run.#inProgress();
    return run;
  }

  /**
   * A run created in progress after `afterMs` unless concluded first. A failure to create it in
   * progress is not thrown here: the conclusion creates it then. 0 creates it at once.
   */
  static deferred(
    octokit: GitHubClient,
    repo: RepoRef,
    headSha: string,
    afterMs: number,
    identity: RunIdentity | null = null,
    name: string = CHECK_NAME,
  ): CheckRun {
    const run = new CheckRun(octokit, repo, headSha, identity, name);
    const begin = (): void => void run.#inProgress().catch(() => undefined);
    if (afterMs <= 0) begin();
    else {
      run.#timer = setTimeout(begin, afterMs);
      // A review's pending timer must not keep a stopping process alive.
      run.#timer.unref();
    }
    return run;
  }

  /** GitHub's id of the run; null until it is created. */
  get id(): number | null {
    return this.#id;
  }

  /** Stops the pending creation in progress: a review handed back to its queue leaves the run to the next attempt. */
  abandon(): void {
    this.#stopTimer();
  }

  /**
   * Adopts the run an earlier attempt of the same job created on this head, if any: its id, and
   * no more annotations when it already has some (GitHub would add them twice). A failed search
   * adopts nothing: a second run is better than none.
   */
  #adopt(): Promise<void> {
    const identity = this.identity;
    if (identity === null || !identity.resume) return Promise.resolve();
    this.#adopting ??= findRun(this.octokit, this.repo, this.headSha, identity.externalId, this.name).then(
      (found) => {
        if (found === null || this.#id !== null) return;
        this.#id = found.id;
        if (found.annotations > 0) this.#annotated = true;
      },
      () => undefined,
    );
    return this.#adopting;
  }

  /** The adopted run already carries annotations. */
  #annotated = false;

  #inProgress(): Promise<number> {
    this.#stopTimer();
    this.#creating ??= this.#adopt()
      .then(() =>
        this.#id !== null
          ? { data: { id: this.#id } }
          : this.octokit.rest.checks.create({
              ...this.repo,
              name: this.name,
              head_sha: this.headSha,
              status: 'in_progress',
              started_at: new Date().toISOString(),
              ...this.#external(),
            }),
      )
      .then(
        ({ data }) => (this.#id = data.id),
        (err: unknown) => {
          // Not created: the conclusion will try to create the run itself.
          this.#creating = null;
          throw err;
        },
      );
    return this.#creating;
  }

  #stopTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The run's id, creating it in progress first when it is not created yet. */
  async #existing(): Promise<number> {
    return this.#id ?? (await this.#inProgress());
  }

  /**
   * Concludes the run in one request, with at most one request's worth of annotations, the most
   * important (report/annotation-cap.ts): a review of thousands of changes writes no more than one
   * of a few.
   */
  async complete(shown: CheckOutput): Promise<void> {
    // The last stop before GitHub: no known secret leaves, whichever path built the output.
    const output = redactor().redactDeep(capAnnotations(shown, MAX_ANNOTATIONS));
    if (this.#id === null && this.#creating === null) await this.#adopt();
    // An adopted run that has annotations keeps them: GitHub would add these to them.
    const annotations = this.#annotated ? [] : output.annotations;
    // Not created yet: created already concluded, one write.
    if (this.#id === null && this.#creating === null) return this.#createConcluded(output, annotations);
    await this.#existing();
    await this.#conclude(output, annotations);
  }

  /**
   * Concludes the run again with another outcome (an override learnt after the first conclusion).
   * No annotations: GitHub keeps those already sent and would add any sent again.
   */
  /** Rewrites a concluded run's text, its conclusion untouched (nothing about it is sent). */
  async rewriteText(shown: CheckOutput): Promise<void> {
    const output = redactor().redactDeep(shown);
    await this.octokit.rest.checks.update({
      ...this.repo,
      check_run_id: await this.#existing(),
      output: {
        title: clip(output.title, 255),
        summary: clip(output.summary, MAX_OUTPUT_CHARS),
        ...(output.text === undefined ? {} : { text: clip(output.text, MAX_OUTPUT_CHARS) }),
      },
    });
  }

  async revise(output: CheckOutput): Promise<void> {
    await this.#conclude(redactor().redactDeep(output), []);
  }

  /**
   * Concludes the run at `at` (epoch ms), when a rate limit outlasted the review's budget, so it
   * is not left in progress: tried again a few times, a rate limit moving the next try. Lost if
   * the process stops first; a re-run or the next push then concludes a new run on the head.
   */
  concludeLater(output: CheckOutput, at: number, log: Pick<Logger, 'warn' | 'info'>, attempt = 1): void {
    const timer = setTimeout(
      () => {
        this.complete(output).then(
          () => log.info({ checkRunId: this.id, conclusion: output.conclusion }, 'check run concluded after waiting out a rate limit'),
          (err: unknown) => {
            if (attempt >= LATER_ATTEMPTS) {
              log.warn(
                { checkRunId: this.id, err: describeFailure(err) },
                'check run still not concluded; a re-run will conclude the head',
              );
              return;
            }
            const next = err instanceof WriteBudgetExceededError ? err.retryAt : Date.now() + 2 ** attempt * 1000;
            this.concludeLater(output, next, log, attempt + 1);
          },
        );
      },
      Math.max(0, at - Date.now()),
    );
    // A pending conclusion must not keep a stopping process alive.
    timer.unref();
  }

  async #conclude(output: CheckOutput, annotations: CheckAnnotation[]): Promise<void> {
    await this.octokit.rest.checks.update({
      ...this.repo,
      check_run_id: await this.#existing(),
      ...concluding(output, annotations),
    });
    this.concluded = output.conclusion;
  }

  async #createConcluded(output: CheckOutput, annotations: CheckAnnotation[]): Promise<void> {
    this.#stopTimer();
    const now = new Date().toISOString();
    const creating = this.octokit.rest.checks
      .create({
        ...this.repo,
        name: this.name,
        head_sha: this.headSha,
        started_at: now,
        ...this.#external(),
        ...concluding(output, annotations),
      })
      .then(({ data }) => (this.#id = data.id));
    this.#creating = creating;
    try {
      await creating;
    } catch (err) {
      // Not taken: a later conclusion (tried again, or later) creates the run again.
      this.#creating = null;
      throw err;
    }
    this.concluded = output.conclusion;
  }

  #external(): { external_id?: string } {
    return this.identity === null ? {} : { external_id: this.identity.externalId };
  }
}

/** Our run on a head with this external id, the newest first; null when there is none. */
async function findRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
  name: string,
): Promise<{ id: number; status: string; annotations: number } | null> {
  const { data } = await octokit.rest.checks.listForRef({ ...repo, ref: headSha, check_name: name, filter: 'all', per_page: 100 });
  const ours = data.check_runs.filter((r) => r.external_id === externalId).sort((a, b) => b.id - a.id)[0];
  return ours ? { id: ours.id, status: ours.status, annotations: ours.output.annotations_count } : null;
}

/**
 * Concludes, with `output`, every run of a job still in progress on a head: what a job that
 * failed for good leaves behind is never a check in progress.
 */
export async function concludeLeftInProgress(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
  output: CheckOutput,
  name: string = CHECK_NAME,
): Promise<number> {
  const { data } = await octokit.rest.checks.listForRef({ ...repo, ref: headSha, check_name: name, filter: 'all', per_page: 100 });
  const open = data.check_runs.filter((r) => r.external_id === externalId && r.status !== 'completed');
  for (const run of open) {
    await octokit.rest.checks.update({ ...repo, check_run_id: run.id, ...concluding(redactor().redactDeep(output), []) });
  }
  return open.length;
}

/** The fields that conclude a run, on its creation or on an update. */
function concluding(output: CheckOutput, annotations: CheckAnnotation[]) {
  return {
    status: 'completed' as const,
    conclusion: output.conclusion,
    completed_at: new Date().toISOString(),
    output: {
      title: clip(output.title, 255),
      summary: clip(output.summary, MAX_OUTPUT_CHARS),
      ...(output.text === undefined ? {} : { text: clip(output.text, MAX_OUTPUT_CHARS) }),
      ...(annotations.length > 0 ? { annotations } : {}),
    },
  };
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = '\n\n… (truncated)';
  const cut = text.slice(0, max - note.length);
  // A cut inside a right-to-left run closes its isolate (domain/visible.ts), one character earlier.
  return (closeIsolates(cut) === cut ? cut : closeIsolates(cut.slice(0, -1))) + note;
}
