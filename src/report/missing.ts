import type { MissingEvidence, MissingText } from '../domain/index.js';
import { missingWords } from './missing-words.js';
import type { Surface } from './surface.js';
import { MAX_SENTENCE, md, prose } from './escape.js';

const MAX_ITEMS = 50;
/** Up to this many items read fine as one list; beyond it they are grouped by where the fix goes. */
const FLAT_UP_TO = 5;

/** Where an item is fixed, in the order a reader would work through them. */
const GROUPS = [
  { name: 'Files in this pull request', test: /^fix |readable|not followed/i },
  { name: 'Workload catalog', test: /catalog|document them in/i },
  { name: 'Load tests', test: /load test|loadTest|GuideLLM|vllm bench/i },
  {
    name: 'Telemetry: exporters and scrape settings',
    test: /scrape|exporter|dcgm|kube-state-metrics|Kueue configuration|Prometheus|metrics/i,
  },
  { name: 'Prices and policy', test: /prices:|OpenCost|gpu-justify\.yml/i },
] as const;
const OTHER = 'Other';

function groupOf(m: MissingText): string {
  return GROUPS.find((g) => g.test.test(m.how) || g.test.test(m.what))?.name ?? OTHER;
}

function item(m: MissingText): string {
  return `- [ ] **${md(m.what.trim(), MAX_SENTENCE)}**: ${prose(m.how)}`;
}

/**
 * Missing evidence as a checklist: what is missing, then how to add it (the catalog field, the
 * exporter setting, the query). A long list is grouped by where each fix is made.
 */
export function missingEvidenceList(missing: readonly MissingEvidence[], surface: Surface = 'pull-request'): string {
  const shown = missing.slice(0, MAX_ITEMS).map((m) => missingWords(m, surface));
  const left = missing.length - shown.length;
  const tail = left > 0 ? `\n\n…and ${left} more not shown.` : '';
  const byGroup = new Map<string, MissingText[]>();
  for (const m of shown) byGroup.set(groupOf(m), [...(byGroup.get(groupOf(m)) ?? []), m]);
  if (shown.length <= FLAT_UP_TO || byGroup.size === 1) return shown.map(item).join('\n') + tail;
  const order = [...GROUPS.map((g) => g.name), OTHER];
  const parts = order
    .filter((name) => byGroup.has(name))
    .map((name) => {
      const items = byGroup.get(name) ?? [];
      return `**${name}** (${items.length})\n\n${items.map(item).join('\n')}`;
    });
  return parts.join('\n\n') + tail;
}
