import type { CatalogDemand } from '../domain/index.js';
import { code, md } from './escape.js';

/** Entries named before the rest is counted. */
const MAX_NAMED = 10;

/**
 * What enforce mode made of a catalog the PR changes: the entries whose demand it raises were
 * judged as the base branch has them, with what the head's would need instead; the entries it
 * adds counted, marked as declared by this PR.
 */
export function catalogDemandBlock(demand: CatalogDemand, catalogFile: string): string {
  const parts: string[] = [];
  if (demand.raised.length > 0) {
    const items = demand.raised.slice(0, MAX_NAMED).map((r) => `- ${code(r.workload)}: ${r.fields.map((f) => md(f, 120)).join('; ')}`);
    const more = demand.raised.length > MAX_NAMED ? `\n- …and ${demand.raised.length - MAX_NAMED} more.` : '';
    const instead =
      demand.gpusNeededWithHeadEntries === null
        ? ''
        : ` Taken as this pull request writes them, they would make ${demand.gpusNeededWithHeadEntries} GPUs to add.`;
    parts.push(
      `**This pull request raises the demand of entries in ${code(catalogFile)}**, so they were judged as the base branch has them ` +
        `(a pull request cannot raise the demand it is judged by; merge the catalog change first to have it count).${instead}\n${items.join('\n')}${more}`,
    );
  }
  if (demand.declaredInPr.length > 0) {
    const names = demand.declaredInPr.slice(0, MAX_NAMED).map((n) => code(n));
    const more = demand.declaredInPr.length > MAX_NAMED ? ` and ${demand.declaredInPr.length - MAX_NAMED} more` : '';
    parts.push(`_Declared by this pull request (new in ${code(catalogFile)}, counted):_ ${names.join(', ')}${more}.`);
  }
  return parts.join('\n\n');
}
