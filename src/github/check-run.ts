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

/** The check run of one review, created in progress on the head commit. */
export class CheckRun {
  /** The conclusion GitHub last accepted for this run; null while it is in progress. */
  concluded: CheckOutput['conclusion'] | null = null;
  #batchesSent = 0;

  private constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    readonly id: number,
  ) {}

  static async start(octokit: GitHubClient, repo: RepoRef, headSha: string): Promise<CheckRun> {
    const { data } = await octokit.rest.checks.create({
      ...repo,
      name: CHECK_NAME,
      head_sha: headSha,
      status: 'in_progress',
      started_at: new Date().toISOString(),
    });
    return new CheckRun(octokit, repo, data.id);
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
    // Sent again (a conclusion tried later), GitHub would add the batches already taken twice.
    for (const annotations of batches.slice(this.#batchesSent)) {
      await this.octokit.rest.checks.update({
        ...this.repo,
        check_run_id: this.id,
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
      check_run_id: this.id,
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
      check_run_id: this.id,
      status: 'completed',
      conclusion: output.conclusion,
      completed_at: new Date().toISOString(),
      output: {
        title: clip(output.title, 255),
        summary: clip(output.summary, MAX_OUTPUT_CHARS),
        ...(output.text === undefined ? {} : { text: clip(output.text, MAX_OUTPUT_CHARS) }),
        ...(annotations.length > 0 ? { annotations } : {}),
      },
    });
    this.concluded = output.conclusion;
  }
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
