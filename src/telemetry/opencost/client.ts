import { z } from 'zod';
import { redactor } from '../../util/redact.js';
import {
  TelemetryConfigError,
  TelemetryError,
  TelemetryQueryError,
  TelemetryResponseError,
  TelemetryUnavailableError,
  describeEndpoint,
} from '../errors.js';
import type { HttpSettings } from '../prometheus/http.js';
import { requestJson } from '../prometheus/http.js';
import type { MissingReason } from '../source.js';

/** `namespace`, or a pod label such as `label:app` (OpenCost's `aggregate`). */
export type Aggregate = 'namespace' | `label:${string}`;

export interface AllocationQuery {
  /** End of the window. */
  at: Date;
  windowMinutes: number;
  aggregate: Aggregate;
}

/** GPU use and cost of one aggregate (a namespace, a label value) over the window; null when OpenCost had no number. */
interface Allocation {
  key: string;
  gpuHours: number | null;
  gpuCost: number | null;
  totalCost: number | null;
  minutes: number | null;
}

export type AllocationResult =
  | { status: 'ok'; source: string; query: AllocationQuery; allocations: Allocation[] }
  | { status: 'missing'; source: string; query: AllocationQuery; reason: MissingReason; message: string };

const SOURCE = 'opencost';
const LABEL = /^label:[a-zA-Z_][a-zA-Z0-9_]*$/;

// NaN and Inf come back as null; unknown fields (newer releases add many) are ignored.
const num = z.number().nullable().optional();
const allocationSchema = z.object({ name: z.string().optional(), gpuHours: num, gpuCost: num, totalCost: num, minutes: num });
const responseSchema = z.object({
  code: z.number().optional(),
  message: z.string().optional(),
  data: z.array(z.record(z.string(), allocationSchema.nullable())).nullable().optional(),
});

export function openCostSettings(url: string | undefined, overrides: Partial<Omit<HttpSettings, 'url'>> = {}): HttpSettings {
  let parsed: URL;
  try {
    parsed = new URL((url ?? '').trim());
  } catch {
    throw new TelemetryConfigError('no usable OpenCost URL: set OPENCOST_URL or pass --opencost <url> (e.g. http://opencost:9003)', {
      source: SOURCE,
      query: '(configuration)',
    });
  }
  // fetch refuses a URL with user info: it is sent as a Basic credential, and never shown.
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  if (parsed.username !== '' || parsed.password !== '') {
    const user = safeDecode(parsed.username);
    const password = safeDecode(parsed.password);
    const pair = `${user}:${password}`;
    headers['Authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    secrets.push(pair, Buffer.from(pair).toString('base64'), parsed.password, password, parsed.username, user);
    redactor().addBasic(user, password);
    parsed.username = '';
    parsed.password = '';
  }
  return {
    url: parsed,
    headers,
    secrets: secrets.filter((s) => s.length >= 3),
    timeoutMs: 60_000,
    retries: 2,
    backoffMs: 500,
    maxBackoffMs: 10_000,
    postAbove: Number.POSITIVE_INFINITY,
    ...overrides,
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function allocationLabel(q: AllocationQuery): string {
  return `allocation aggregate=${q.aggregate} window=${q.windowMinutes}m at ${q.at.toISOString()}`;
}

const add = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);

/** Reads GPU hours and cost per aggregate over the window from OpenCost's allocation API. */
export async function fetchAllocation(settings: HttpSettings, q: AllocationQuery, path = '/allocation'): Promise<AllocationResult> {
  const where = `${SOURCE} at ${describeEndpoint(settings.url)}`;
  const label = allocationLabel(q);
  const missing = (reason: MissingReason, message: string): AllocationResult => ({
    status: 'missing',
    source: where,
    query: q,
    reason,
    message,
  });
  if (q.aggregate !== 'namespace' && !LABEL.test(q.aggregate)) {
    return missing('bad-query', `${where}: aggregate must be namespace or label:<name>, got ${q.aggregate}`);
  }
  const start = new Date(q.at.getTime() - q.windowMinutes * 60_000);
  const params = {
    window: `${start.toISOString().replace('.000', '')},${q.at.toISOString().replace('.000', '')}`,
    aggregate: q.aggregate,
    accumulate: 'true',
  };
  try {
    const answer = await requestJson(settings, { path, params, label, sourceName: SOURCE });
    const parsed = responseSchema.safeParse(answer.body);
    if (!parsed.success)
      throw new TelemetryResponseError(`${where} sent JSON that is not an allocation response for ${label}`, {
        source: where,
        query: label,
      });
    const code = parsed.data.code ?? 200;
    if (code >= 400) {
      const Err = code >= 500 ? TelemetryUnavailableError : TelemetryQueryError;
      throw new Err(`${where} answered code ${code} for ${label}: ${parsed.data.message ?? 'no reason given'}`, {
        source: where,
        query: label,
        status: code,
      });
    }
    // accumulate=true gives one set; should a server give several, they add up.
    const byKey = new Map<string, Allocation>();
    for (const set of parsed.data.data ?? []) {
      for (const [key, a] of Object.entries(set)) {
        if (a === null) continue;
        const next: Allocation = {
          key,
          gpuHours: a.gpuHours ?? null,
          gpuCost: a.gpuCost ?? null,
          totalCost: a.totalCost ?? null,
          minutes: a.minutes ?? null,
        };
        const prev = byKey.get(key);
        byKey.set(
          key,
          prev === undefined
            ? next
            : {
                key,
                gpuHours: add(prev.gpuHours, next.gpuHours),
                gpuCost: add(prev.gpuCost, next.gpuCost),
                totalCost: add(prev.totalCost, next.totalCost),
                minutes: add(prev.minutes, next.minutes),
              },
        );
      }
    }
    if (byKey.size === 0) return missing('no-data', `${where}: no allocations for ${label}`);
    return { status: 'ok', source: where, query: q, allocations: [...byKey.values()] };
  } catch (err) {
    if (!(err instanceof TelemetryError)) throw err;
    const reason: MissingReason =
      err.kind === 'telemetry-unavailable'
        ? 'unavailable'
        : err.kind === 'telemetry-bad-query'
          ? 'bad-query'
          : err.kind === 'telemetry-config'
            ? 'config'
            : 'bad-response';
    return missing(reason, err.message);
  }
}
