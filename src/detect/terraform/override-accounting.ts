import type { AccountedLines, ParseOutcome, SourceFile } from '../parser.js';
import { accountedOf } from '../parser.js';
import type { Placement } from './override-merge.js';
import { locatorFor } from './tf-json.js';

/**
 * The override blocks whose merged block the reading accounts for: what a pool's override sets
 * (a machine type, a GPU count) is read with the pool, in the block it merged into, so the GPU
 * names written in the override file are accounted for as that block's are. An override merged
 * into a block nothing read stays to the floor, as the block does.
 */
export function overrideAccounting(placements: readonly Placement[], files: readonly SourceFile[], result: ParseOutcome): AccountedLines[] {
  if (placements.length === 0) return [];
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const anchors = accountedOf(result);
  const out: AccountedLines[] = [];
  for (const p of placements) {
    // Locals and the settings blocks are accounted for by what uses them (terraform-feeds.ts).
    if (!['resource', 'data', 'ephemeral', 'module'].includes(p.header[0] ?? '')) continue;
    const into = blockLines(p.into, texts.get(p.into), p.header);
    const from = blockLines(p.from, texts.get(p.from), p.header);
    if (into === null || from === null) continue;
    if (anchors.some((a) => a.file === p.into && into.from <= a.from && a.from <= into.to))
      out.push({ file: p.from, from: from.from, to: from.from, object: true });
  }
  return out;
}

/** The lines of a top-level block of a file, by its header. */
function blockLines(path: string, text: string | undefined, header: readonly string[]): { from: number; to: number } | null {
  if (text === undefined) return null;
  const loc = locatorFor(path, text);
  const span = loc.path(loc.file(), [header]);
  return span === null ? null : { from: span.line, to: loc.lineAt(span.end) };
}
