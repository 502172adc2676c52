import { LineCounter } from 'yaml';
import type { NotFollowed } from '../../domain/index.js';
import { readYaml } from './kube-yaml.js';
import { fileFormat } from './yaml-segments.js';

/** JSON manifests hold no aliases or tags, and templates are not YAML until rendered. */
const NOT_PLAIN_YAML = /\.(json|tpl|tftpl)$/i;
/** An object's identity keys anywhere in the document, in block or flow style. */
const API_VERSION = /(^|[\s{,])["']?apiVersion["']?[ \t]*:/;
const KIND = /(^|[\s{,])["']?kind["']?[ \t]*:/;
/** Documents named per file: the first is where the fix starts, the rest are listed. */
const NAMED = 5;

/**
 * The Kubernetes objects of a changed YAML file that the applier refuses at this side, read as
 * kubectl reads them (kube-yaml.ts): a syntax error, an alias of an anchor set in another
 * document (go-yaml decodes each document alone), NaN, a key JSON cannot hold, a `List` whose
 * items are no objects. Each reader of a kind looks only at the documents it wants, so a refused
 * workload, Crossplane claim or queue would otherwise be taken as no capacity by the reader that
 * skips it and by the floor that sees no GPU name in it; nothing is applied as written, so the
 * file is not followed, whatever kind it holds. Helm templates (`{{`) are the chart renderer's.
 */
export function refusedDocuments(file: string, text: string): NotFollowed[] {
  if (fileFormat(file, text) !== 'yaml' || NOT_PLAIN_YAML.test(file) || text.includes('{{') || !API_VERSION.test(text)) return [];
  const lc = new LineCounter();
  const found: { line: number; message: string }[] = [];
  const seen = new Set<unknown>();
  for (const doc of readYaml(text, lc, { lists: true })) {
    const problems = doc.errors.length > 0 ? doc.errors : doc.rejections;
    // The items of one List share its problems: the List is refused once.
    if (problems.length === 0 || seen.has(problems)) continue;
    seen.add(problems);
    const own = text.slice(doc.range[0], doc.range[2]);
    if (!API_VERSION.test(own) || !KIND.test(own)) continue;
    for (const p of problems) found.push({ line: lc.linePos(p.pos[0]).line, message: firstLine(p.message) });
  }
  const [first, ...rest] = found;
  if (first === undefined) return [];
  return [
    {
      file,
      line: first.line,
      reason: 'unreadable',
      subject: file,
      needs: `kubectl (go-yaml) refuses the document at line ${first.line} (${first.message}), so nothing in it is applied as written`,
      ...(rest.length > 0 ? { inputs: rest.slice(0, NAMED - 1).map((r) => `line ${r.line}: ${r.message}`) } : {}),
    },
  ];
}

/** The parser's message without its position, which the entry's line already gives. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? 'unreadable YAML').replace(/ at line \d+, column \d+:?\s*$/, '');
}
