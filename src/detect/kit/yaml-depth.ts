/**
 * The offset where flow collections (`[`, `{`) first nest deeper than `max`, or null. Quoted
 * scalars and comments are skipped; a bracket in a plain scalar counts, so the count can only be
 * too high: a file it wrongly names is refused, never read for less than it holds.
 */
export function flowDepthPast(text: string, max: number): number | null {
  if (text.length <= max) return null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x22 && tokenStart(text, i)) {
      // "…": a backslash escapes the next character.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x27 && tokenStart(text, i)) {
      // '…': '' is a quote inside, read as two quoted runs.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x27; i++);
    } else if (c === 0x23 && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
    }
  }
  return null;
}

/** True when a quote at `i` can open a quoted scalar: at a line's start, after a space or a flow indicator. */
function tokenStart(text: string, i: number): boolean {
  return i === 0 || /[\s[{,]/.test(text[i - 1] ?? '');
}
