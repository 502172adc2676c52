import type { FindingDetail } from './finding-detail.js';
import type { MissingItem } from './missing.js';
import type { BoundProof } from './bound-proof.js';

export type Verdict = 'not-justified' | 'partially-justified' | 'justified' | 'insufficient-evidence' | 'no-gpu-change';

export type Lever = 'stagger' | 'batching' | 'cheaper-model' | 'reclaim-idle' | 'borrow-quota' | 'mig' | 'time-slicing';

/** Where a number came from: a file line, a query, a window. */
export interface Evidence {
  source: 'catalog' | 'policy' | 'infra' | 'prometheus' | 'opencost' | 'load-test' | 'planner';
  /** `file:line`, a query, or a short description of the computation. */
  ref: string;
  window?: string;
  /** The planner's proof of its lower bound, which report/ words after `ref`. */
  proof?: BoundProof;
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

/** Missing evidence in words: telemetry's queries and GitHub's limits state theirs so. */
export interface MissingText {
  what: string;
  /** How to add it: the catalog field, the exporter setting, the query. */
  how: string;
}

/** Something the review lacks: in words, or (from analysis) a code report/ words for each surface. */
export type MissingEvidence = MissingText | MissingItem;

/** The same missing evidence gives the same key, however it is stated. */
export function missingKey(m: MissingEvidence): string {
  return 'code' in m ? JSON.stringify(m) : `${m.what}\n${m.how}`;
}
