import { lineStarts, scanPlain } from './structure.js';
import type { Structure } from './structure.js';
import type { Syntax } from './syntax.js';
import { scanBraces } from './brace-structure.js';
import { scanYamlText } from './parsed-yaml-structure.js';

/** The structure of a text (structure.ts), read by the scanner of its kind. */
export function scanStructure(text: string, syntax: Syntax): Structure {
  const out: Structure = { masked: '', keys: [], points: [], containers: [], overridden: [] };
  const masked = text.split('');
  const starts = lineStarts(text);
  if (syntax.kind === 'yaml') {
    scanYamlText(text, 0, text.length, null, -1, syntax, out, masked, starts);
  } else if (syntax.kind === 'brace') {
    scanBraces(text, syntax, out, masked, starts);
  } else {
    scanPlain(text, 0, text.length, syntax, out, masked, starts, null, -1);
  }
  out.masked = masked.join('');
  out.points.sort((a, b) => a.offset - b.offset);
  return out;
}
