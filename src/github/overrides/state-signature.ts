import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures over the state our sticky comment carries between reviews. The comment's text
 * holds strings a pull request controls, so nothing parsed back from it is trusted unless it
 * carries an HMAC made with a key only the server holds, over the repository, the pull request
 * and every field the state asserts.
 */

/** What a signature is bound to besides its own fields: one pull request of one repository. */
export interface StateScope {
  /** `owner/repo`; compared without regard to case, as GitHub does. */
  repo: string;
  number: number;
}

/** A key for state signatures; derived, so the secret it comes from is never used as is. */
export type StateKey = Buffer & { readonly __stateKey: unique symbol };

/** Derives the signing key from a server-side secret; null when there is none to derive from. */
export function stateKey(secret: string | undefined | null): StateKey | null {
  if (secret === undefined || secret === null || secret.trim() === '') return null;
  return createHmac('sha256', secret).update('gpu-justify state key v1').digest() as StateKey;
}

/**
 * The server's secret for state signatures: a dedicated `GPU_JUSTIFY_STATE_SECRET`, else the
 * App's webhook secret or private key, which an App server always holds and a pull request never
 * sees. The Action has only its workflow token, which changes every run, so it reads back state
 * only with a dedicated secret.
 */
export function stateSecretFromEnv(env: Record<string, string | undefined>, app: boolean): string | null {
  const dedicated = env['GPU_JUSTIFY_STATE_SECRET'];
  if (dedicated) return dedicated;
  if (!app) return null;
  return env['WEBHOOK_SECRET'] || env['PRIVATE_KEY'] || null;
}

/** Hex HMAC-SHA256 over the kind of state, its scope and its fields, in a fixed order. */
export function signState(key: StateKey, kind: string, scope: StateScope, fields: readonly (string | number)[]): string {
  const text = JSON.stringify([kind, scope.repo.toLowerCase(), scope.number, ...fields]);
  return createHmac('sha256', key).update(text).digest('hex');
}

/** Whether `signature` is the one `signState` makes for these fields; constant time. */
export function verifyState(
  key: StateKey,
  kind: string,
  scope: StateScope,
  fields: readonly (string | number)[],
  signature: string,
): boolean {
  const expected = Buffer.from(signState(key, kind, scope, fields), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : null;
  return given !== null && given.length === expected.length && timingSafeEqual(given, expected);
}
