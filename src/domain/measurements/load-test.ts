import type { Result } from '../result.js';

/** One load-test step: the request rate reached and the latency and errors at that rate. */
export interface LoadTestRow {
  /** Achieved requests per second (not the target rate). */
  rate: number;
  p50E2eMs: number | null;
  p95E2eMs: number | null;
  p99E2eMs: number | null;
  ttftP95Ms: number | null;
  /** Errored / (successful + errored); null when the report does not say. */
  errorRate: number | null;
  /** What the step was: `constant at 4.5/s`, `throughput`, `request_rate=inf`. */
  label: string;
}

type LoadTestFormat = 'guidellm' | 'vllm-bench';

/** A load test read: the tool that wrote it and its steps by rate. */
interface LoadTestTable {
  format: LoadTestFormat;
  rows: LoadTestRow[];
}

/** A load test named by the catalog, read: its steps by rate, or a sentence saying why it could not be read. */
export type LoadTestImport = Result<LoadTestTable, string>;
