import { z } from 'zod';

/**
 * The Prometheus API envelope, as Prometheus, Thanos, Mimir and VictoriaMetrics send it. Lenient:
 * unknown keys (VictoriaMetrics' `isPartial`, `stats`) are dropped, not refused.
 */
const rawSample = z.tuple([z.number(), z.string()]);
const labels = z.record(z.string(), z.string());

const dataSchema = z.discriminatedUnion('resultType', [
  z.object({
    resultType: z.literal('vector'),
    result: z.array(z.object({ metric: labels, value: rawSample.optional() })),
  }),
  z.object({
    resultType: z.literal('matrix'),
    result: z.array(z.object({ metric: labels, values: z.array(rawSample).optional() })),
  }),
  z.object({ resultType: z.literal('scalar'), result: rawSample }),
  z.object({ resultType: z.literal('string'), result: rawSample }),
]);

export const envelopeSchema = z.object({
  status: z.enum(['success', 'error']),
  data: z.unknown().optional(),
  errorType: z.string().optional(),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  infos: z.array(z.string()).optional(),
});

export type RawData = z.infer<typeof dataSchema>;

interface Sample {
  /** Unix seconds. */
  t: number;
  v: number;
}

export interface Series {
  labels: Record<string, string>;
  samples: Sample[];
}

/** Samples left out of `series` and why: they are reported, never turned into numbers. */
export interface Skipped {
  nan: number;
  inf: number;
  /** DCGM's "blank" sentinels (≈ 9.22e18): the field had no value. */
  blank: number;
}

export interface PromData {
  resultType: 'vector' | 'matrix' | 'scalar';
  series: Series[];
  skipped: Skipped;
}

export function parseData(data: unknown): RawData | null {
  const parsed = dataSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** Prometheus writes sample values as strings: "1.5", "NaN", "+Inf", "-Inf". */
function sampleValue(raw: string): number {
  switch (raw) {
    case 'NaN':
      return Number.NaN;
    case '+Inf':
    case 'Inf':
      return Number.POSITIVE_INFINITY;
    case '-Inf':
      return Number.NEGATIVE_INFINITY;
    default:
      return raw.trim() === '' ? Number.NaN : Number(raw);
  }
}

/**
 * Turns raw data into finite samples. `blankAbove` marks values at or above it as blank
 * (DCGM); non-finite values are counted in `skipped`.
 */
export function toSeries(data: RawData, blankAbove: number | null = null): PromData {
  const skipped: Skipped = { nan: 0, inf: 0, blank: 0 };
  const keep = (pairs: [number, string][]): Sample[] => {
    const out: Sample[] = [];
    for (const [t, raw] of pairs) {
      const v = sampleValue(raw);
      if (Number.isNaN(v)) skipped.nan++;
      else if (!Number.isFinite(v)) skipped.inf++;
      else if (blankAbove !== null && v >= blankAbove) skipped.blank++;
      else out.push({ t, v });
    }
    return out;
  };
  switch (data.resultType) {
    case 'vector':
      return {
        resultType: 'vector',
        series: data.result.map((r) => ({ labels: r.metric, samples: keep(r.value ? [r.value] : []) })),
        skipped,
      };
    case 'matrix':
      return {
        resultType: 'matrix',
        series: data.result.map((r) => ({ labels: r.metric, samples: keep(r.values ?? []) })),
        skipped,
      };
    case 'scalar':
      return { resultType: 'scalar', series: [{ labels: {}, samples: keep([data.result]) }], skipped };
    case 'string':
      // No query this tool builds returns a string; treat it as no series.
      return { resultType: 'scalar', series: [], skipped };
  }
}
