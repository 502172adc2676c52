import { redactSecrets } from '../../util/redact.js';
import { GpuJustifyError } from '../../domain/errors.js';

/**
 * GitHub answered a request with an error status ("GitHub refused"), or could not be reached at all
 * (`network` set): not a bug, not bad input. Octokit reports a request that never got an answer as
 * status 500 with no response; it keeps status 500 here, so retries and fail-closed paths treat it
 * as the transient failure it may be, while its message names the cause instead of a 500.
 */
export class GitHubApiError extends GpuJustifyError {
  override readonly kind = 'github-api';

  constructor(
    readonly status: number,
    readonly method: string,
    /** The request's path, without host or query. */
    readonly path: string,
    options: { cause?: unknown; network?: NetworkFailure } = {},
  ) {
    super(
      options.network
        ? `GitHub API unreachable: ${options.network.words} (${options.network.code}) on ${method} ${path}; ` +
            `check the API URL (GITHUB_API_URL for the CLI and the Action, GHE_HOST for the App) and this machine's network`
        : `GitHub API refused: ${status} on ${method} ${path}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.name = 'GitHubApiError';
    if (options.network) this.network = options.network;
  }

  /** Set when no answer came back: the cause, by its system or TLS code. */
  readonly network?: NetworkFailure;

  /** Octokit's RequestError, recognised by shape so we need not depend on its package. */
  static from(err: unknown): GitHubApiError | null {
    if (err instanceof GitHubApiError) return err;
    if (typeof err !== 'object' || err === null) return null;
    const { status, request, response } = err as { status?: unknown; request?: { method?: unknown; url?: unknown }; response?: unknown };
    if (typeof status !== 'number' || typeof request?.method !== 'string') return null;
    const url = typeof request.url === 'string' ? request.url : '';
    const network = response === undefined ? networkFailure(err) : undefined;
    return new GitHubApiError(status, request.method, pathOf(url), { cause: err, ...(network ? { network } : {}) });
  }
}

/** Why a request got no answer. */
export interface NetworkFailure {
  /** `ENOTFOUND`, `ECONNREFUSED`, `ETIMEDOUT`, a TLS code such as `CERT_HAS_EXPIRED`, or `unknown`. */
  code: string;
  words: string;
}

const NETWORK_WORDS: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved (DNS did not answer)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'no route to its host',
  ENETUNREACH: 'no route to its network',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer came in time',
  UND_ERR_SOCKET: 'the connection closed before an answer',
  AbortError: 'the request timed out',
};

/** The innermost cause with a code, through Octokit's RequestError → fetch's TypeError → the socket's error. */
function networkFailure(err: object): NetworkFailure | undefined {
  let at: unknown = err;
  let name: string | undefined;
  for (let depth = 0; depth < 5 && typeof at === 'object' && at !== null; depth++) {
    const { code, cause } = at as { code?: unknown; cause?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== '') return { code, words: NETWORK_WORDS[code] ?? tlsWords(code) };
    if ((at as { name?: unknown }).name === 'AbortError') name = 'AbortError';
    at = cause;
  }
  if (name !== undefined) return { code: 'timeout', words: NETWORK_WORDS[name] ?? 'the request timed out' };
  if (typeof (err as { cause?: unknown }).cause !== 'object') return undefined;
  // No code (fetch refuses some ports itself, "bad port"): the innermost message says why.
  const message = (err as { message?: unknown }).message;
  return {
    code: 'unknown',
    words: typeof message === 'string' && message !== '' ? `no answer came back: ${message}` : 'no answer came back',
  };
}

function tlsWords(code: string): string {
  return /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) ? 'its TLS certificate was not accepted' : 'no answer came back';
}

/**
 * Turns whatever a review threw into one line for the check run: what kind of failure it was
 * and where, never a token or a request body.
 */
export function describeFailure(err: unknown): string {
  const http = GitHubApiError.from(err);
  if (http) return redactSecrets(http.message);
  if (err instanceof GpuJustifyError) return redact(`${err.kind}: ${err.message}`);
  if (err instanceof Error) return redact(`unexpected ${err.name}: ${err.message}`);
  return 'unexpected failure';
}

/** The path alone: the host is ours to know and the query may carry refs we need not echo. */
function pathOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return url.split('?')[0] ?? '';
  }
}

const SECRET_PATTERNS = [/\bgh[opsur]_[A-Za-z0-9_]+/g, /\b(?:bearer|token)\s+[A-Za-z0-9._~+/=-]+/gi];

function redact(text: string): string {
  // The process's secrets first, in full: clipping could cut one and leave a recognisable part.
  const known = redactSecrets(text);
  const clipped = known.length > 300 ? `${known.slice(0, 300)}…` : known;
  return SECRET_PATTERNS.reduce((t, re) => t.replace(re, '[redacted]'), clipped);
}
