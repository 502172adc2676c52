import { redactor } from '../domain/redact.js';
import type { CheckAnnotation, CheckOutput } from '../report/check.js';
import type { GitHubClient, RepoRef } from './client.js';

export const CHECK_NAME = 'gpu-justify';

/** GitHub takes at most 50 annotations per check-run request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** GitHub's limit on a check run's summary and text. */
const MAX_OUTPUT_CHARS = 65_535;

/** The check run of one review, created in progress on the head commit. */
export class CheckRun {
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
    for (const annotations of batches) {
      await this.octokit.rest.checks.update({
        ...this.repo,
        check_run_id: this.id,
        output: { title, summary, annotations },
      });
    }
    await this.#conclude(output, last);
  }

  /**
   * Concludes the run again with another outcome (an override learnt after the first conclusion).
   * No annotations: GitHub keeps those already sent and would add any sent again.
   */
  async revise(output: CheckOutput): Promise<void> {
    await this.#conclude(redactor().redactDeep(output), []);
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
