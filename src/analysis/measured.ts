import { missingKey, type MissingEvidence } from '../domain/index.js';
import type { ReviewTelemetry } from '../telemetry/collect.js';
import type { LoadTestImport } from '../telemetry/loadtest/index.js';
import { notFiniteNote } from '../telemetry/finite.js';
import type { QueryAnswer } from '../telemetry/source.js';
import { toMissingEvidence } from '../telemetry/source.js';

/**
 * The review's telemetry as the levers read it: answers by query id, and for each question that
 * went unanswered, the missing-evidence line to show — collected per change, so a change lists
 * only what its own levers needed.
 */
export class Measured {
  private readonly missingById = new Map<string, MissingEvidence>();
  private readonly wanted: MissingEvidence[] = [];

  constructor(readonly telemetry: ReviewTelemetry) {
    const outage = telemetry.evidence.outage;
    for (const r of telemetry.evidence.results) {
      if (r.status === 'missing') this.missingById.set(r.query.id, outage ?? toMissingEvidence(r));
    }
  }

  /** The answer to a query, or undefined; a miss is remembered as evidence this change lacks. */
  answer(id: string): QueryAnswer | undefined {
    const a = this.telemetry.evidence.answers.get(id);
    if (a === undefined) this.lack(this.missingById.get(id));
    else this.noteNotFinite(a);
    return a;
  }

  /**
   * Like `answer`, without recording a miss: for optional refinements. An answer it gives is
   * used, so its NaN or ±Inf samples are noted all the same.
   */
  peek(id: string): QueryAnswer | undefined {
    const a = this.telemetry.evidence.answers.get(id);
    if (a !== undefined) this.noteNotFinite(a);
    return a;
  }

  /** Numbers from an answer with NaN or ±Inf samples count only the finite ones: the reader is told. */
  private noteNotFinite(a: QueryAnswer): void {
    this.lack(notFiniteNote(a) ?? undefined);
  }

  loadTest(path: string): LoadTestImport | undefined {
    return this.telemetry.loadTests.get(path);
  }

  /** Records a missing item once. */
  lack(item: MissingEvidence | undefined): void {
    if (item === undefined) return;
    const key = missingKey(item);
    if (!this.wanted.some((w) => missingKey(w) === key)) this.wanted.push(item);
  }

  missing(): MissingEvidence[] {
    return [...this.wanted];
  }

  /** The source answered nothing at all: what was measured is no more than the files say. */
  get answeredNothing(): boolean {
    return this.telemetry.evidence.answers.size === 0;
  }

  get window(): string {
    return `${this.telemetry.windowMinutes}m to ${this.telemetry.at}`;
  }
}
