import type { FindingDetail } from './finding-detail.js';

export type Verdict = 'not-justified' | 'partially-justified' | 'justified' | 'insufficient-evidence' | 'no-gpu-change';

export type Lever = 'stagger' | 'batching' | 'cheaper-model' | 'reclaim-idle' | 'borrow-quota';

/** Where a number came from: a file line, a query, a window. */
export interface Evidence {
  source: 'catalog' | 'policy' | 'infra' | 'prometheus' | 'opencost' | 'load-test' | 'planner';
  /** `file:line`, a query, or a short description of the computation. */
  ref: string;
  window?: string;
}

export interface Finding {
  lever: Lever;
  gpusFreed: number;
  meetsNeed: boolean;
  /** What it found, as data; report/ words it (the JSON's `summary`). */
  detail: FindingDetail;
  evidence: Evidence[];
  confidence?: 'high' | 'medium' | 'low';
}

export interface MissingEvidence {
  what: string;
  /** How to add it: the catalog field, the exporter setting, the query. */
  how: string;
}
