/**
 * Hidden markers holding state in our sticky comment: `<!-- gpu-justify:<kind> {json} -->`.
 * Reading one back yields only candidates; the caller verifies each one's signature, since
 * anything in the comment's text may have come from the pull request.
 */

/** Longest marker payload read back: far above any record we write. */
const MAX_JSON = 16_000;

export function stateMarker(kind: string, data: Record<string, unknown>): string {
  // `<` and `>` escaped, so no field can close the HTML comment early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<!-- gpu-justify:${kind} ${json} -->`;
}

/** Every well-formed JSON object held by a `kind` marker in `body`, first first. */
export function readStateMarkers(body: string, kind: string): unknown[] {
  const found: unknown[] = [];
  const prefix = `<!-- gpu-justify:${kind} `;
  for (let at = body.indexOf(prefix); at >= 0; at = body.indexOf(prefix, at + prefix.length)) {
    const start = at + prefix.length;
    const end = body.indexOf(' -->', start);
    if (end < 0 || end - start > MAX_JSON) continue;
    try {
      const parsed: unknown = JSON.parse(body.slice(start, end));
      if (typeof parsed === 'object' && parsed !== null) found.push(parsed);
    } catch {
      // Not ours, or damaged: a candidate that is not even JSON is no state at all.
    }
  }
  return found;
}
