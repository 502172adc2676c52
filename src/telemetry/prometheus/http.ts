import { TelemetryQueryError, TelemetryResponseError, TelemetryUnavailableError, describeEndpoint, redact } from '../errors.js';

/** How to reach one HTTP API: a Prometheus-compatible one, or OpenCost's. */
export interface HttpSettings {
  /** Base URL, path prefix included (Mimir: `https://mimir.example/prometheus`). */
  url: URL;
  /** Sent with every request: auth and the operator's extra headers (`X-Scope-OrgID`, …). */
  headers: Record<string, string>;
  /** Values that must never reach a message, a log or a snapshot. */
  secrets: string[];
  timeoutMs: number;
  /** Extra attempts after the first on 5xx, 429 and connection failures. */
  retries: number;
  backoffMs: number;
  /** Longest wait between attempts, Retry-After included. */
  maxBackoffMs: number;
  /**
   * Encoded parameters longer than this go by POST (VictoriaMetrics and proxies cap URL length);
   * Infinity for APIs that only take GET.
   */
  postAbove: number;
}

export interface JsonRequest {
  /** Appended to the base URL's path, e.g. `/api/v1/query`. */
  path: string;
  params: Record<string, string>;
  /** Names the query in errors. */
  label: string;
  /** `prometheus`, `opencost`. */
  sourceName: string;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
  method: 'GET' | 'POST';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function endpointOf(settings: HttpSettings, path: string): URL {
  const url = new URL(settings.url.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Prometheus answers 503 with errorType `timeout` or `canceled` when one query ran past its
 * query timeout: the server is up, only that query failed.
 */
function queryTimedOut(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const type = (body as Record<string, unknown>)['errorType'];
  return type === 'timeout' || type === 'canceled';
}

/**
 * The API's own error text when it sent one (`{"error": …}` or OpenCost's `{"message": …}`),
 * scrubbed before it is shortened: a cut could leave part of a secret no longer recognisable.
 */
function apiMessage(body: unknown, clean: (text: string) => string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const rec = body as Record<string, unknown>;
  const msg = rec['error'] ?? rec['message'];
  return typeof msg === 'string' ? clean(msg).slice(0, 300) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One API call with the house rules: GET, or a form POST when the query is long; a timeout per
 * attempt; bounded retries with exponential backoff on 5xx, 429 and refused connections,
 * honouring Retry-After. Errors name the source and the query and never the credentials.
 */
export async function requestJson(settings: HttpSettings, req: JsonRequest): Promise<JsonAnswer> {
  const endpoint = endpointOf(settings, req.path);
  const where = `${req.sourceName} at ${describeEndpoint(endpoint)}`;
  const clean = (text: string) => redact(text, settings.secrets);
  const form = new URLSearchParams(req.params).toString();
  const method = form.length > settings.postAbove ? 'POST' : 'GET';
  const opts = { source: clean(where), query: clean(req.label) };

  let lastProblem = '';
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    let response: Response;
    try {
      const url = new URL(endpoint.href);
      if (method === 'GET') url.search = form;
      response = await fetch(url, {
        method,
        headers: {
          Accept: 'application/json',
          ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          ...settings.headers,
        },
        ...(method === 'POST' ? { body: form } : {}),
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        // The attempt already waited the whole timeout; another would only double the wait.
        throw new TelemetryUnavailableError(clean(`${where} did not answer within ${settings.timeoutMs} ms for ${req.label}`), opts);
      }
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      lastProblem = typeof code === 'string' ? code : 'connection failed';
      if (attempt < settings.retries) {
        await sleep(backoff(settings, attempt, null));
        continue;
      }
      throw new TelemetryUnavailableError(
        clean(`${where} is unreachable (${lastProblem}) for ${req.label}, after ${attempt + 1} attempt(s)`),
        opts,
      );
    }

    let text: string;
    try {
      text = await response.text();
    } catch {
      // The timeout covers the body too: a server that stalls mid-answer is unavailable, not wrong.
      throw new TelemetryUnavailableError(clean(`${where} broke off or stalled while answering ${req.label} (HTTP ${response.status})`), {
        ...opts,
        status: response.status,
      });
    }
    const body = parseJson(text);
    if (isRetryable(response.status)) {
      lastProblem = `HTTP ${response.status}${apiMessage(body, clean) ? `: ${apiMessage(body, clean)}` : ''}`;
      if (attempt < settings.retries) {
        await sleep(backoff(settings, attempt, retryAfterMs(response.headers.get('retry-after'))));
        continue;
      }
      throw new TelemetryUnavailableError(clean(`${where} answered ${lastProblem} for ${req.label}, after ${attempt + 1} attempt(s)`), {
        ...opts,
        status: response.status,
        queryOnly: queryTimedOut(body),
      });
    }
    if (response.status === 400 || response.status === 422) {
      const msg = apiMessage(body, clean) ?? 'no reason given';
      throw new TelemetryQueryError(clean(`${where} rejected ${req.label} (HTTP ${response.status}): ${msg}`), {
        ...opts,
        status: response.status,
      });
    }
    if (body === undefined) {
      const type = response.headers.get('content-type') ?? 'no content type';
      throw new TelemetryResponseError(clean(`${where} answered HTTP ${response.status} with ${type}, not JSON, for ${req.label}`), {
        ...opts,
        status: response.status,
      });
    }
    if (response.status >= 300) {
      const msg = apiMessage(body, clean);
      throw new TelemetryResponseError(clean(`${where} answered HTTP ${response.status} for ${req.label}${msg ? `: ${msg}` : ''}`), {
        ...opts,
        status: response.status,
      });
    }
    return { status: response.status, body, method };
  }
  // The loop always returns or throws; this satisfies the compiler.
  throw new TelemetryUnavailableError(clean(`${where} failed for ${req.label}: ${lastProblem}`), opts);
}

function backoff(settings: HttpSettings, attempt: number, retryAfter: number | null): number {
  const exponential = settings.backoffMs * 2 ** attempt;
  // Jitter spreads retries from parallel queries so they do not hit the server together.
  const wait = retryAfter ?? exponential * (0.5 + Math.random() / 2);
  return Math.min(wait, settings.maxBackoffMs);
}
