import type { UnresolvedDecl } from '../parser.js';
import type { ChartRenders } from './install-render.js';

/** Why a render is named not followed: its values or its template (read-render.ts). */
const RENDER_REASONS: ReadonlySet<string> = new Set(['helm-values', 'helm-template']);

/**
 * The base's rendered objects where the head's render of the same template was not followed (its
 * values not valid YAML or an alias bomb, a `fail` or `required` it reached, a function it could
 * not run, a named template left unrendered): what the head renders there cannot be told, which is
 * not the same as those objects being removed. Each such object the head's render does not name is
 * kept at head as unresolved, so the change is unknown (an error on its file) rather than `4 → 0`.
 * A render that fails at the base only is left as it is: its head objects then read as new, which
 * overstates and never hides what the head adds.
 */
export function keepUnrendered(renders: ChartRenders): ChartRenders {
  // A render not followed is named on the changed file it answers for, about its template; the
  // objects it renders stand at the template (the chart's own values) or at the values file.
  const unknownAt = new Set<string>();
  for (const n of renders.head.notFollowed) {
    if (!RENDER_REASONS.has(n.reason)) continue;
    unknownAt.add(n.file);
    unknownAt.add(n.subject);
  }
  if (unknownAt.size === 0) return renders;
  const key = (d: { file: string; kind: string; name: string }) => JSON.stringify([d.file, d.kind, d.name]);
  const atHead = new Set([...renders.head.decls, ...renders.head.unresolved].map(key));
  const kept: UnresolvedDecl[] = [];
  for (const d of [...renders.base.decls, ...renders.base.unresolved]) {
    if (!unknownAt.has(d.file) || atHead.has(key(d))) continue;
    atHead.add(key(d));
    kept.push({ file: d.file, line: d.line, kind: d.kind, name: d.name });
  }
  if (kept.length === 0) return renders;
  return { ...renders, head: { ...renders.head, unresolved: [...renders.head.unresolved, ...kept] } };
}
