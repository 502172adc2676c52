import { Redactor, redactor } from '../util/redact.js';
import { GpuJustifyError } from '../domain/errors.js';

/**
 * Why a telemetry answer could not be had. Each error names the source and the query, and never
 * the credentials: messages pass through `redact` before they are built.
 */
export type TelemetryErrorKind = 'telemetry-unavailable' | 'telemetry-bad-query' | 'telemetry-bad-response' | 'telemetry-config';

interface TelemetryErrorOptions {
  /** `prometheus`, `opencost`, … plus where it was reached, credentials removed. */
  source: string;
  /** The query, path or file that was asked for. */
  query: string;
  status?: number;
  cause?: unknown;
  /** The server is up and refused this one query only (Prometheus's own query timeout, say). */
  queryOnly?: boolean;
}

export abstract class TelemetryError extends GpuJustifyError {
  abstract override readonly kind: TelemetryErrorKind;
  readonly source: string;
  readonly query: string;
  readonly status?: number;
  readonly queryOnly: boolean;

  constructor(message: string, options: TelemetryErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.source = options.source;
    this.query = options.query;
    if (options.status !== undefined) this.status = options.status;
    this.queryOnly = options.queryOnly === true;
  }
}

/** Unreachable, timed out, or 5xx/429 after the retries ran out. */
export class TelemetryUnavailableError extends TelemetryError {
  override readonly kind = 'telemetry-unavailable';
  override readonly name = 'TelemetryUnavailableError';
}

/** The server refused the query itself (400, 422): retrying will not help. */
export class TelemetryQueryError extends TelemetryError {
  override readonly kind = 'telemetry-bad-query';
  override readonly name = 'TelemetryQueryError';
}

/** The server answered with something that is not the API's JSON (an HTML login page, say). */
export class TelemetryResponseError extends TelemetryError {
  override readonly kind = 'telemetry-bad-response';
  override readonly name = 'TelemetryResponseError';
}

/** The operator's environment does not describe a usable source. */
export class TelemetryConfigError extends TelemetryError {
  override readonly kind = 'telemetry-config';
  override readonly name = 'TelemetryConfigError';
}

const redactors = new WeakMap<readonly string[], Redactor>();

/**
 * Replaces every secret in `text`, in each of its encodings (see Redactor), with `***`: these
 * settings' own and every other secret the process knows. Secrets shorter than 3 characters are
 * too common to scrub.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let own = redactors.get(secrets);
  if (!own) redactors.set(secrets, (own = new Redactor().add(...secrets)));
  return redactor().redact(own.redact(text));
}

/** A URL fit for messages: no user info, no query string. */
export function describeEndpoint(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
