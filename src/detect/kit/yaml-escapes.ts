import { isScalar, Scalar, visit } from 'yaml';
import { parseAllDocumentsLinear } from '../../util/yaml-linear.js';
import { fileFormat } from './yaml-segments.js';

/** `\xXX`, `\uXXXX` and `\UXXXXXXXX` in a double-quoted scalar's source. */
const ESCAPE = /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))/g;

/**
 * A character that may stand for itself inside a double-quoted scalar without changing what it
 * reads as, or where lines fall: printable, no quote or backslash, no YAML 1.1 line break (NEL,
 * LS, PS) and no byte order mark.
 */
function literal(code: number): boolean {
  if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0x7f && code < 0xa0)) return false;
  if (code === 0x2028 || code === 0x2029 || code === 0xfeff || (code >= 0xd800 && code <= 0xdfff)) return false;
  return code <= 0x10ffff;
}

/**
 * A YAML file with the numeric escapes of its double-quoted scalars written as the characters they
 * stand for (`"nvidia.com\u002Fgpu"` is `"nvidia.com/gpu"`, `kind: "\x43lusterQueue"` is
 * `"ClusterQueue"`): the same YAML, line for line, that go-yaml and every parser read alike. A
 * name spelt with escapes would otherwise pass the cheap checks that decide which parser reads a
 * file, and the scan for GPU names, while the applier reads it plainly. Text that is no YAML, has no
 * such escape, or does not parse is returned as it is.
 */
export function withPlainEscapes(path: string, text: string): string {
  if (!text.includes('\\') || !text.includes('"') || fileFormat(path, text) === null) return text;
  ESCAPE.lastIndex = 0;
  if (!ESCAPE.test(text)) return text;
  const docs = parseAllDocumentsLinear(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return text;
  const spans: [number, number][] = [];
  for (const doc of docs)
    visit(doc, {
      Scalar(_, node) {
        if (isScalar(node) && node.type === Scalar.QUOTE_DOUBLE && node.range) spans.push([node.range[0], node.range[1]]);
      },
    });
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [from, to] of spans) {
    if (from < at) continue;
    out += text.slice(at, from);
    out += text.slice(from, to).replace(ESCAPE, (whole, x?: string, u?: string, big?: string) => {
      const code = parseInt(x ?? u ?? big ?? '', 16);
      return literal(code) ? String.fromCodePoint(code) : whole;
    });
    at = to;
  }
  return out + text.slice(at);
}
