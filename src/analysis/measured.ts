import type {
  LoadTestImport,
  MeasureKey,
  Measurement,
  MissingEvidence,
  MissingMeasurementReason,
  ReviewMeasurements,
  TakenMeasurement,
} from '../domain/index.js';
import { missingKey } from '../domain/index.js';

/**
 * The review's measurements as the levers read them, and for each one that a figure needed and
 * that was missing, the missing-evidence line to show — collected per change, so a change lists
 * only what its own levers needed.
 */
export class Measured {
  private readonly wanted: MissingEvidence[] = [];

  constructor(readonly telemetry: ReviewMeasurements) {}

  /** The measurement, taken or missing, noting nothing; undefined when it was not asked. */
  result(key: MeasureKey): Measurement | undefined {
    return this.telemetry.measurements.get(key);
  }

  /** Why an asked measurement is missing; null when it was taken or not asked. */
  missingBecause(key: MeasureKey): MissingMeasurementReason | null {
    const r = this.result(key);
    return r?.status === 'missing' ? r.reason : null;
  }

  /** The measurement, or undefined; a miss is remembered as evidence this change lacks. */
  answer(key: MeasureKey): TakenMeasurement | undefined {
    const r = this.result(key);
    if (r?.status === 'missing') this.lack(r.missing);
    if (r?.status !== 'measured') return undefined;
    this.lack(r.notFinite ?? undefined);
    return r;
  }

  /**
   * Like `answer`, without recording a miss: for optional refinements. A measurement it gives is
   * used, so its NaN or ±Inf samples are noted all the same.
   */
  peek(key: MeasureKey): TakenMeasurement | undefined {
    const r = this.result(key);
    if (r?.status !== 'measured') return undefined;
    this.lack(r.notFinite ?? undefined);
    return r;
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
    return !this.telemetry.answeredAny;
  }

  get window(): string {
    return `${this.telemetry.windowMinutes}m to ${this.telemetry.at}`;
  }
}
