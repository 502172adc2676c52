import { redactSecrets } from '../domain/redact.js';

/** GitHub answered a request with an error status: "GitHub refused", not a bug, not bad input. */
export class GitHubApiError extends Error {
  readonly kind = 'github-api';

  constructor(
    readonly status: number,
    readonly method: string,
    /** The request's path, without host or query. */
    readonly path: string,
    options: { cause?: unknown } = {},
  ) {
    super(`GitHub API refused: ${status} on ${method} ${path}`, options);
    this.name = 'GitHubApiError';
  }

  /** Octokit's RequestError, recognised by shape so we need not depend on its package. */
  static from(err: unknown): GitHubApiError | null {
    if (err instanceof GitHubApiError) return err;
    if (typeof err !== 'object' || err === null) return null;
    const { status, request } = err as { status?: unknown; request?: { method?: unknown; url?: unknown } };
    if (typeof status !== 'number' || typeof request?.method !== 'string') return null;
    const url = typeof request.url === 'string' ? request.url : '';
    return new GitHubApiError(status, request.method, pathOf(url), { cause: err });
  }
}

/**
 * Turns whatever a review threw into one line for the check run: what kind of failure it was
 * and where, never a token or a request body.
 */
export function describeFailure(err: unknown): string {
  const http = GitHubApiError.from(err);
  if (http) return redactSecrets(http.message);
  if (err instanceof Error) {
    const kind = (err as { kind?: unknown }).kind;
    const label = typeof kind === 'string' ? kind : `unexpected ${err.name}`;
    return redact(`${label}: ${err.message}`);
  }
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
