import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * GitHub's custom media types (`Accept: application/vnd.github.raw+json`, …) as its OpenAPI
 * description documents them: each operation lists the ones it serves in its description, since
 * the schema itself only knows JSON.
 */

/** What every operation answers: the default JSON representation. */
const DEFAULTS = new Set(['application/vnd.github', 'application/vnd.github.v3', 'application/json', '*/*']);

let documented: Map<string, Set<string>> | null = null;

/**
 * The custom media type an `Accept` header asks for, without the version and the `+json`
 * suffix GitHub treats as optional (`application/vnd.github.v3.raw` → `raw`); null for the
 * default JSON.
 */
export function customMediaType(accept: string | string[] | undefined): string | null {
  const first = (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).split(',')[0] ?? '';
  const type = normaliseType(first);
  if (type === '' || DEFAULTS.has(type)) return null;
  return type.replace(/^application\/vnd\.github\./, '');
}

/** Why GitHub would not serve the `Accept` header's media type for the operation; null when it would. */
export function mediaTypeProblem(method: string, template: string, accept: string | string[] | undefined): string | null {
  const wanted = customMediaType(accept);
  if (wanted === null) return null;
  const served = mediaTypesOf(method, template);
  if (served.has(wanted)) return null;
  return `accept: media type "${String(accept)}" is not one the operation documents (${[...served].join(', ') || 'none'})`;
}

function normaliseType(type: string): string {
  return (type.split(';')[0] ?? '')
    .trim()
    .toLowerCase()
    .replace(/^application\/vnd\.github\.v3(?=[.+]|$)/, 'application/vnd.github')
    .replace(/\+json$/, '');
}

/** Read lazily: only requests asking for a custom media type need the (13 MB) description. */
function mediaTypesOf(method: string, template: string): Set<string> {
  if (documented === null) {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
    const spec = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { description?: string }>> };
    documented = new Map();
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        const types = [...(op.description ?? '').matchAll(/\*\*`(application\/vnd\.github[^`]*)`\*\*/g)]
          .map((m) => customMediaType(m[1]))
          .filter((t): t is string => t !== null);
        documented.set(`${verb.toUpperCase()} ${path}`, new Set(types));
      }
    }
  }
  return documented.get(`${method.toUpperCase()} ${template}`) ?? new Set();
}
