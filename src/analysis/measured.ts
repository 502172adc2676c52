import type { MissingEvidence } from '../domain/index.js';
import type { ReviewTelemetry } from '../telemetry/collect.js';
import type { LoadTestImport } from '../telemetry/loadtest/index.js';
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
    for (const r of telemetry.evidence.results) if (r.status === 'missing') this.missingById.set(r.query.id, toMissingEvidence(r));
  }

  /** The answer to a query, or undefined; a miss is remembered as evidence this change lacks. */
  answer(id: string): QueryAnswer | undefined {
    const a = this.telemetry.evidence.answers.get(id);
    if (a === undefined) this.lack(this.missingById.get(id));
    return a;
  }

  /** Like `answer`, without recording a miss: for optional refinements. */
  peek(id: string): QueryAnswer | undefined {
    return this.telemetry.evidence.answers.get(id);
  }

  loadTest(path: string): LoadTestImport | undefined {
    return this.telemetry.loadTests.get(path);
  }

  /** Records a missing item once. */
  lack(item: MissingEvidence | undefined): void {
    if (item === undefined) return;
    if (!this.wanted.some((w) => w.what === item.what && w.how === item.how)) this.wanted.push(item);
  }

  missing(): MissingEvidence[] {
    return [...this.wanted];
  }

  get window(): string {
    return `${this.telemetry.windowMinutes}m to ${this.telemetry.at}`;
  }
}
