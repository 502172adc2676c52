import { hclBlocks } from '../kit/signal-scan/hcl-module.js';
import { jsonModuleCalls } from '../terraform-json-feeds.js';
import { isOverrideFile } from './override-files.js';

const SOURCE = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/m;

/**
 * The `source` of each module call of one folder as Terraform sees it once override files are
 * merged (override-merge.ts): the primary block's, replaced by the last override file (in lexical
 * order of names) whose block of that call sets one. An override block of a call that sets only
 * arguments (`module "gpu" { workers = 8 }` in `main_override.tf`) keeps the primary's source, so
 * what it gives is judged as an argument of that module. A call whose source is no literal string
 * is absent.
 */
export function mergedModuleSources(files: readonly { path: string; text: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  const ordered = [
    ...files.filter((f) => !isOverrideFile(f.path)),
    ...files.filter((f) => isOverrideFile(f.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  ];
  for (const f of ordered) for (const [name, source] of sourcesOf(f.path, f.text)) out.set(name, source);
  return out;
}

/** The literal sources a file's module blocks set, by call name. */
function sourcesOf(path: string, text: string): [string, string][] {
  if (path.endsWith('.json')) return jsonModuleCalls(text).flatMap((c) => (c.source === undefined ? [] : [[c.name, c.source]]));
  const lines = text.split('\n');
  return hclBlocks(text).flatMap((b): [string, string][] => {
    if (b.type !== 'module') return [];
    const source = SOURCE.exec(lines.slice(b.from, b.to - 1).join('\n'))?.[1];
    return source === undefined ? [] : [[b.labels[0] ?? '', source]];
  });
}
