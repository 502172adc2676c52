import { redactor } from '../domain/redact.js';
import type { CheckAnnotation, CheckOutput } from '../report/check.js';
import type { GitHubClient, Logger, RepoRef } from './client.js';
import { describeFailure } from './errors.js';
import { WriteBudgetExceededError } from './write-budget.js';

export const CHECK_NAME = 'gpu-justify';

/** GitHub takes at most 50 annotations per check-run request. */
export const ANNOTATIONS_PER_REQUEST = 50;

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
  #batchesSent = 0;
  /** The run's id once GitHub created it; the creation in flight, if any. */
  #id: number | null = null;
  #creating: Promise<number> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    private readonly headSha: string,
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
  static deferred(octokit: GitHubClient, repo: RepoRef, headSha: string, afterMs: number): CheckRun {
    const run = new CheckRun(octokit, repo, headSha);
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

  #inProgress(): Promise<number> {
    this.#stopTimer();
    this.#creating ??= this.octokit.rest.checks
      .create({
        ...this.repo,
        name: CHECK_NAME,
        head_sha: this.headSha,
        status: 'in_progress',
        started_at: new Date().toISOString(),
      })
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
   * Concludes the run. Annotations beyond the first batch go in earlier updates while the run
   * is still in progress, so a completed run already shows all of them.
   */
  async complete(shown: CheckOutput): Promise<void> {
    // The last stop before GitHub: no known secret leaves, whichever path built the output.
    const output = redactor().redactDeep(shown);
    const title = clip(output.title, 255);
    const summary = clip(output.summary, MAX_OUTPUT_CHARS);
    const batches = chunk(output.annotations, ANNOTATIONS_PER_REQUEST);
    const last = batches.pop() ?? [];
    // Not created yet, and every annotation fits one request: created already concluded.
    if (this.#id === null && this.#creating === null && batches.length === 0) return this.#createConcluded(output, last);
    const id = await this.#existing();
    // Sent again (a conclusion tried later), GitHub would add the batches already taken twice.
    for (const annotations of batches.slice(this.#batchesSent)) {
      await this.octokit.rest.checks.update({
        ...this.repo,
        check_run_id: id,
        output: { title, summary, annotations },
      });
      this.#batchesSent += 1;
    }
    await this.#conclude(output, last);
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
      .create({ ...this.repo, name: CHECK_NAME, head_sha: this.headSha, started_at: now, ...concluding(output, annotations) })
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

function chunk(items: CheckAnnotation[], size: number): CheckAnnotation[][] {
  const out: CheckAnnotation[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = '\n\n… (truncated)';
  return text.slice(0, max - note.length) + note;
}
