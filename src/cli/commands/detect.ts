import { detectChanges } from '../../detect/detect-changes.js';
import { changeJson } from '../../report/json.js';
import { parseFlags, required } from '../args.js';
import type { Output } from '../output.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';

export async function detectCommand(argv: string[], out: Output): Promise<number> {
  const flags = parseFlags(argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    repo: { type: 'string' },
    json: { type: 'boolean' },
  });
  const changes = await changeSetFromArgs({
    base: required(flags.base, '--base'),
    head: required(flags.head, '--head'),
    ...(flags.repo === undefined ? {} : { repo: flags.repo }),
  });
  const result = await detectChanges(changes);
  if (flags.json) {
    out.stdout(JSON.stringify({ changes: result.changes.map(changeJson), diagnostics: result.diagnostics }, null, 2));
    return 0;
  }
  if (result.changes.length === 0) out.stdout('No GPU capacity change.');
  for (const c of result.changes) {
    const delta = c.delta > 0 ? `+${c.delta}` : String(c.delta);
    out.stdout(`${c.file}:${c.line}  ${c.kind} ${c.name}: ${c.gpusBefore} → ${c.gpusAfter} GPUs (${delta})`);
  }
  for (const d of result.diagnostics) {
    out.stderr(`${d.file}${d.line === null ? '' : `:${d.line}`}: ${d.severity}: ${d.message}`);
  }
  return 0;
}
