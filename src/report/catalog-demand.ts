import type { CatalogDemand, DeclaredDemand } from '../domain/index.js';
import { code, md } from './escape.js';
import { num } from './numbers.js';
import { VERDICT_TITLE } from './verdict-text.js';

/** Entries named before the rest is counted. */
const MAX_NAMED = 10;

/**
 * What the review made of the demand the pull request declares in the catalog: what nothing
 * measured does not count (raised entries judged as the base has them, added ones left out), with
 * what it would have made of the PR and what would make it count; what was measured counts.
 */
export function catalogDemandBlock(demand: CatalogDemand, catalogFile: string): string {
  const parts: string[] = [];
  const fields = new Map(demand.raised.map((r) => [r.workload, r.fields]));
  const unsupported = demand.declared.filter((d) => d.support === null);
  const supported = demand.declared.filter((d) => d.support !== null);
  if (unsupported.length > 0) {
    const items = unsupported.slice(0, MAX_NAMED).map((d) => `- ${entry(d, fields.get(d.workload))}`);
    const more = unsupported.length > MAX_NAMED ? `\n- …and ${unsupported.length - MAX_NAMED} more.` : '';
    const toAdd = demand.gpusNeededWithHeadEntries === null ? 'unknown' : String(demand.gpusNeededWithHeadEntries);
    parts.push(
      `**This pull request declares demand in ${code(catalogFile)} that nothing measured, so it does not count**: a pull request ` +
        'cannot write the demand that justifies it. An entry it raises is judged as the base branch has it, one it adds is left out. ' +
        `Taken as written, they would make the review **${VERDICT_TITLE[demand.verdictWithHeadEntries]}** (GPUs to add: ${toAdd}).\n` +
        `${items.join('\n')}${more}\n\n` +
        'To count it: telemetry of the runs through the entry’s `selector` reaching what it declares (a job), or its request rate ' +
        'against a load test already on the base branch (a service); or an approval by someone the policy lets override ' +
        '(`/gpu-justify override <reason>`); or merge the catalog change first.',
    );
  }
  if (supported.length > 0) {
    const names = supported.slice(0, MAX_NAMED).map((d) => `${code(d.workload)} (${measuredBy(d)})`);
    const more = supported.length > MAX_NAMED ? ` and ${supported.length - MAX_NAMED} more` : '';
    parts.push(`_Declared by this pull request in ${code(catalogFile)} and measured, so counted as written:_ ${names.join(', ')}${more}.`);
  }
  return parts.join('\n\n');
}

function entry(d: DeclaredDemand, raised: readonly string[] | undefined): string {
  const daily = d.gpuHoursPerDay === null ? '' : `, ${num(d.gpuHoursPerDay)} GPU-hours a day`;
  const what = d.change === 'added' ? 'added' : `raised: ${(raised ?? []).map((f) => md(f, 120)).join('; ')}`;
  const shared =
    d.sharesSelectorWith === undefined
      ? ''
      : `; its \`selector\` also picks the pods of ${code(d.sharesSelectorWith)}, whose use is not this entry's`;
  return `${code(d.workload)} (${what}): ${num(d.gpus)} GPUs at once${daily}${shared}`;
}

function measuredBy(d: DeclaredDemand): string {
  const s = d.support;
  if (s === null) return '';
  return s.by === 'telemetry'
    ? `its runs held up to ${num(s.peakGpus)} GPUs, ${num(s.gpuHoursPerDay)} GPU-hours a day`
    : `sized from its observed peak and load test: ${num(s.gpusNeeded)} GPUs`;
}
