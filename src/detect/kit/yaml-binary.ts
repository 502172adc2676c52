import { isScalar, visit } from 'yaml';
import { parseAllDocumentsLinear } from '../../util/yaml-linear.js';
import { fileFormat } from './yaml-segments.js';

const TAGS = ['!!binary', '!<tag:yaml.org,2002:binary>'];

/**
 * A YAML file with its `!!binary` scalars written as the strings they decode to, line for line.
 * go-yaml v2 (which sigs.k8s.io/yaml, kubectl, Helm, Argo CD and Flux read YAML through) decodes a
 * `!!binary` scalar's base64 when it reads it into an untyped value and hands the bytes on as a
 * string, so `instanceType: !!binary YTItaGlnaGdwdS0xZw==` is `a2-highgpu-1g` to the applier;
 * written in base64 it would pass the scan for GPU names and the checks that pick a file's
 * parsers. The decoded string is a double-quoted scalar whose extra lines are escaped line breaks
 * (which a double-quoted scalar drops with the next line's indentation), so every line keeps its
 * number. Text that is no YAML, has no such tag or does not parse is returned as it is.
 */
export function withPlainBinary(path: string, text: string): string {
  if (!TAGS.some((t) => text.includes(t)) || fileFormat(path, text) === null) return text;
  const docs = parseAllDocumentsLinear(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return text;
  const spans: { from: number; to: number; value: string }[] = [];
  for (const doc of docs)
    visit(doc, {
      Scalar(_, node) {
        if (!isScalar(node) || node.tag !== 'tag:yaml.org,2002:binary' || !node.range || !(node.value instanceof Uint8Array)) return;
        const start = node.range[0];
        const from = Math.max(...TAGS.map((t) => text.lastIndexOf(t, start)));
        // The tag and the value with only blanks between: anything else is not rewritten.
        if (from < 0 || !/^\S+\s*$/.test(text.slice(from, start))) return;
        spans.push({ from, to: node.range[1], value: Buffer.from(node.value).toString('utf8') });
      },
    });
  spans.sort((a, b) => a.from - b.from);
  let out = '';
  let at = 0;
  for (const { from, to, value } of spans) {
    if (from < at) continue;
    const span = text.slice(from, to);
    const trailing = span.endsWith('\n') ? '\n' : '';
    const lines = (trailing ? span.slice(0, -1) : span).split('\n');
    // JSON's escapes are double-quoted YAML's; each further line an escaped break and its indentation.
    const rest = lines.slice(1).map((l) => `\\\n${/^[ \t]*/.exec(l)?.[0] ?? ''}`);
    out += `${text.slice(at, from)}${JSON.stringify(value).slice(0, -1)}${rest.join('')}"${trailing}`;
    at = to;
  }
  return out + text.slice(at);
}
