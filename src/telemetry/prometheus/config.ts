import { z } from 'zod';
import { redactor } from '../../util/redact.js';
import { TelemetryConfigError } from '../errors.js';
import type { HttpSettings } from './http.js';

/** How to reach one Prometheus-compatible API (Prometheus, Thanos, Mimir, VictoriaMetrics). */
export type PrometheusConfig = HttpSettings;

export type PrometheusEnv = Partial<
  Record<'PROMETHEUS_URL' | 'PROMETHEUS_BEARER_TOKEN' | 'PROMETHEUS_BASIC_AUTH' | 'PROMETHEUS_HEADERS', string>
>;

const SOURCE = 'prometheus';
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const headersSchema = z.record(
  z.string().regex(HEADER_NAME, 'is not a valid HTTP header name'),
  z.string().refine((v) => !/[\r\n]/.test(v), 'must not contain a line break'),
);

function configError(message: string): TelemetryConfigError {
  return new TelemetryConfigError(message, { source: SOURCE, query: '(configuration)' });
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // The text may hold a tenant secret: say what is wrong, not what it was.
    throw configError('PROMETHEUS_HEADERS is not valid JSON: expected an object such as {"X-Scope-OrgID":"tenant"}');
  }
  const parsed = headersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (header ${String(issue.path[0])})` : '';
    throw configError(`PROMETHEUS_HEADERS must be a JSON object of header names to string values${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function parseUrl(raw: string | undefined): URL {
  if (raw === undefined || raw.trim() === '') {
    throw configError('no Prometheus URL: set PROMETHEUS_URL or pass --prometheus <url>');
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw configError('the Prometheus URL is not a valid absolute URL (expected e.g. http://prometheus:9090)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`the Prometheus URL must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  return url;
}

/**
 * Reads the operator's settings (docs/telemetry.md). `url` (the CLI's `--prometheus`) wins over
 * `PROMETHEUS_URL`; auth and headers only ever come from the environment.
 */
export function prometheusConfig(
  env: PrometheusEnv = process.env as PrometheusEnv,
  options: { url?: string } & Partial<Omit<PrometheusConfig, 'url' | 'headers' | 'secrets'>> = {},
): PrometheusConfig {
  const url = parseUrl(options.url ?? env.PROMETHEUS_URL);
  const extra = parseHeaders(env.PROMETHEUS_HEADERS);
  const headers: Record<string, string> = { ...extra };
  const secrets = Object.values(extra).filter((v) => v.length >= 3);

  const token = env.PROMETHEUS_BEARER_TOKEN?.trim();
  const basic = env.PROMETHEUS_BASIC_AUTH;
  if (token && basic) {
    throw configError('set either PROMETHEUS_BEARER_TOKEN or PROMETHEUS_BASIC_AUTH, not both');
  }
  let userinfo: string | null = null;
  if (url.username !== '' || url.password !== '') {
    userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    secrets.push(url.password, url.username);
    url.username = '';
    url.password = '';
  }
  if (token) {
    headers['Authorization'] = `Bearer ${token}`;
    secrets.push(token);
  } else if (basic !== undefined && basic !== '') {
    const colon = basic.indexOf(':');
    if (colon <= 0) throw configError('PROMETHEUS_BASIC_AUTH must look like user:password');
    headers['Authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
    secrets.push(basic, basic.slice(colon + 1), Buffer.from(basic).toString('base64'));
  } else if (userinfo !== null) {
    headers['Authorization'] = `Basic ${Buffer.from(userinfo).toString('base64')}`;
    secrets.push(userinfo, Buffer.from(userinfo).toString('base64'));
  }
  url.search = '';
  url.hash = '';

  const kept = secrets.filter((s) => s.length >= 3);
  // Settings may come from a flag, not only the environment: every output surface must know them.
  redactor().add(...kept);
  // A header's credential may be echoed without its scheme (`Bearer …`), a Basic one decoded.
  for (const value of Object.values(extra)) redactor().addHeader(value);
  if (userinfo !== null) {
    const colon = userinfo.indexOf(':');
    redactor().addBasic(userinfo.slice(0, colon), userinfo.slice(colon + 1));
  }
  return {
    url,
    headers,
    secrets: kept,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    backoffMs: options.backoffMs ?? 500,
    maxBackoffMs: options.maxBackoffMs ?? 10_000,
    postAbove: options.postAbove ?? 2_000,
  };
}
