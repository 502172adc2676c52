/** A tiny OpenMetrics writer for backfilling: families in order, each series' samples in time order. */

export type FamilyType = 'gauge' | 'counter' | 'histogram';

export interface SeriesPoints {
  /** Sample name, e.g. `eval_runs_total` or `x_bucket`. */
  name: string;
  labels: Record<string, string>;
  /** [unix seconds, value]; value may be NaN or ±Infinity. */
  points: [number, number][];
}

export interface Family {
  name: string;
  type: FamilyType;
  series: SeriesPoints[];
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

function formatLabels(labels: Record<string, string>): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeLabel(labels[k] as string)}"`).join(',')}}`;
}

export function toOpenMetrics(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.series) {
      const head = `${s.name}${formatLabels(s.labels)} `;
      for (const [t, v] of s.points) lines.push(`${head}${formatValue(v)} ${t}`);
    }
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}
