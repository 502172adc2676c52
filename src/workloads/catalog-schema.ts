import { z } from 'zod';
import {
  clock,
  deadline,
  duration,
  fraction,
  labelMap,
  nonEmptyString,
  positiveInt,
  positiveNumber,
  repoPath,
  weekdays,
} from './fields.js';

/** The workload catalog, `gpu-workloads.yaml` (docs/catalog.md). Strict: unknown keys are errors. */

const outcomesSchema = z.strictObject({
  verified: nonEmptyString().describe('PromQL counting verified outcomes'),
  total: nonEmptyString().optional().describe('PromQL counting all outcomes'),
  qualityThreshold: fraction().optional(),
});

const common = {
  name: nonEmptyString().describe('Unique name of the workload'),
  queue: nonEmptyString().optional().describe('Kueue ClusterQueue it runs in'),
  pool: nonEmptyString().optional().describe('Node pool it runs on'),
  selector: labelMap().optional().describe("Labels that pick this workload's series in Prometheus"),
  outcomes: outcomesSchema.optional(),
};

const windowSchema = z
  .strictObject({
    earliestStart: clock({ allowUnknown: true }),
    deadline: deadline({ allowUnknown: true }).describe(
      'At or before earliestStart means the next day; "06:00 +2d" is 06:00 two days later; "unknown" until the team writes it',
    ),
  })
  // Written as "not over" so a field that already failed (and is not a number) adds no second error.
  .refine((w) => typeof w.deadline !== 'number' || typeof w.earliestStart !== 'number' || !(w.deadline - w.earliestStart > 7 * 1440), {
    error: 'a window can span at most a week',
    path: ['deadline'],
  })
  .describe('Window each run must start and finish in, UTC, opening on each day it runs');

/** A run more often than once a minute cannot be planned on a minute grid. */
const MAX_JOBS_PER_DAY = 1440;

const jobWorkloadSchema = z.strictObject({
  ...common,
  type: z.enum(['batch', 'training']),
  gpusPerJob: positiveInt(),
  runtime: duration({ allowUnknown: true }).describe('Expected runtime: 45m, 2h, 1h30m, 1d; "unknown" until the team writes it'),
  jobsPerDay: positiveInt(MAX_JOBS_PER_DAY).default(1),
  days: weekdays().optional().describe('Weekdays it runs on, e.g. [mon, tue, wed, thu, fri]; every day when absent'),
  window: windowSchema,
  interruptible: z.boolean().default(false).describe('May be preempted and resumed'),
});

const sloSchema = z.strictObject({
  p95LatencyMs: positiveNumber().describe('End-to-end p95 latency'),
  ttftP95Ms: positiveNumber().optional().describe('Time to first token, p95'),
  errorRate: fraction().optional(),
});

const alternativeSchema = z.strictObject({
  name: nonEmptyString(),
  model: nonEmptyString().optional(),
  gpuType: nonEmptyString().optional(),
  gpusPerReplica: positiveInt().optional(),
  quality: fraction().optional(),
  loadTest: repoPath().optional(),
});

const inferenceWorkloadSchema = z.strictObject({
  ...common,
  type: z.literal('inference'),
  model: nonEmptyString().optional(),
  gpusPerReplica: positiveInt(),
  replicas: positiveInt(),
  slo: sloSchema.optional(),
  headroom: fraction().optional().describe("The policy's headroom otherwise"),
  loadTest: repoPath().optional().describe('GuideLLM report or `vllm bench serve` results (JSON / JSON lines)'),
  quality: fraction().optional(),
  qualityThreshold: fraction().optional(),
  alternatives: z.array(alternativeSchema).default([]),
});

export const workloadSchema = z.discriminatedUnion('type', [jobWorkloadSchema, inferenceWorkloadSchema]);

export const catalogSchema = z.strictObject({
  workloads: z.array(workloadSchema),
});

/** The top level alone, so that each workload can be checked (and kept or dropped) on its own. */
export const catalogShellSchema = z.strictObject({
  workloads: z.array(z.unknown()),
});

export type ParsedWorkload = z.output<typeof workloadSchema>;
