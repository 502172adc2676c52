/**
 * Where one HCL expression written in a file ends, read as hclsyntax's scanner reads it: a newline
 * ends an attribute only outside brackets, quoted strings, template interpolations and heredocs.
 * A heredoc (`<<EOT` or `<<-EOT`, the marker right before a newline) runs until a line that, at
 * its start, holds only the marker and white space (hclsyntax/scan_tokens.rl, `heredocLiteralEOL`):
 * inside a call (`chomp(<<-EOT … EOT\n)`) as well as on its own. A reader of one line at a time
 * would take the first line of such a value for all of it.
 */

export interface ExprExtent {
  /** Offset just past the expression's last character (a newline or the limit follows). */
  end: number;
  /** Offsets of the heredoc bodies inside it, from their first line to past their closing marker. */
  heredocs: { from: number; to: number }[];
}

/** The opener of a heredoc: `<<` or `<<-`, an identifier, and the newline right after it. */
const HEREDOC_OPENER = /<<-?([A-Za-z_][\w-]*)\r?\n/y;

/**
 * The extent of the expression starting at `start` in `text`, read no further than `limit`;
 * null when a bracket, string or heredoc it opens is not closed before the limit.
 */
export function expressionExtent(text: string, start: number, limit: number = text.length): ExprExtent | null {
  const heredocs: ExprExtent['heredocs'] = [];
  const end = scan(text, start, Math.min(limit, text.length), heredocs, false);
  return end === null ? null : { end, heredocs };
}

/**
 * Scans an expression from `i`; at the top level it ends at a newline outside brackets, inside a
 * template interpolation (`nested`) at the `}` that closes it (whose offset is returned).
 */
function scan(text: string, from: number, limit: number, heredocs: ExprExtent['heredocs'], nested: boolean): number | null {
  const open: string[] = [];
  let i = from;
  while (i < limit) {
    const c = text[i];
    if (c === '\n' && open.length === 0 && !nested) return trimEnd(text, from, i);
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < limit && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > limit) return null;
      i = close + 2;
      continue;
    }
    if (c === '"') {
      const next = quoted(text, i + 1, limit, heredocs);
      if (next === null) return null;
      i = next;
      continue;
    }
    if (c === '<' && text[i + 1] === '<') {
      HEREDOC_OPENER.lastIndex = i;
      const m = HEREDOC_OPENER.exec(text);
      if (m !== null) {
        const next = heredoc(text, i + m[0].length, m[1] ?? '', limit, heredocs);
        if (next === null) return null;
        i = next;
        continue;
      }
    }
    if (c === '(' || c === '[' || c === '{') open.push(c === '(' ? ')' : c === '[' ? ']' : '}');
    else if (c === ')' || c === ']' || c === '}') {
      if (open.length === 0) return nested && c === '}' ? i : null;
      if (open.pop() !== c) return null;
    }
    i++;
  }
  // The limit ends a top-level expression as a newline would, once everything it opened is closed.
  return open.length === 0 && !nested ? trimEnd(text, from, limit) : null;
}

/** A quoted string whose body starts at `i`: the offset past its closing quote; null when unclosed. */
function quoted(text: string, from: number, limit: number, heredocs: ExprExtent['heredocs']): number | null {
  let i = from;
  while (i < limit) {
    const c = text[i];
    if (c === '"') return i + 1;
    // A quoted string does not span lines in HCL.
    if (c === '\n') return null;
    if (c === '\\') i += 2;
    else if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') i += 3;
    else if ((c === '$' || c === '%') && text[i + 1] === '{') {
      const close = scan(text, i + 2, limit, heredocs, true);
      if (close === null) return null;
      i = close + 1;
    } else i++;
  }
  return null;
}

/**
 * A heredoc whose body starts at `from`: the offset past its closing marker (the newline after it
 * stays, as the scanner leaves it to end the attribute); null when no line closes it.
 */
function heredoc(text: string, from: number, marker: string, limit: number, heredocs: ExprExtent['heredocs']): number | null {
  let i = from;
  let startOfLine = true;
  while (i < limit) {
    if (startOfLine) {
      const eol = text.indexOf('\n', i);
      // The closing marker's line must end with a newline, as the scanner's EndOfLine asks.
      if (eol >= 0 && eol < limit && text.slice(i, eol).trim() === marker) {
        const end = text[eol - 1] === '\r' ? eol - 1 : eol;
        heredocs.push({ from, to: end });
        return end;
      }
    }
    const c = text[i];
    if (c === '\n') {
      startOfLine = true;
      i++;
      continue;
    }
    startOfLine = false;
    if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') i += 3;
    else if ((c === '$' || c === '%') && text[i + 1] === '{') {
      const close = scan(text, i + 2, limit, heredocs, true);
      if (close === null) return null;
      i = close + 1;
    } else i++;
  }
  return null;
}

/** `to`, less the white space and carriage return before it (never before `from`). */
function trimEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && /[ \t\r]/.test(text[end - 1] ?? '')) end--;
  return end;
}
