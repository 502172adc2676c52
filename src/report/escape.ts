const MAX_NAME = 80;
export const MAX_SENTENCE = 400;

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Text from user files, made safe for a markdown table cell or line: no HTML, no table breaks. */
export function md(text: string, max = MAX_NAME): string {
  // Markdown's own characters first, so the escapes added after them stay as they are.
  return shorten(text, max)
    .replace(/[\r\n]+/g, ' ')
    .replace(/([\\`*_[\]#!~])/g, '\\$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}

/**
 * Text for inside a mermaid statement or a quoted mermaid title. Mermaid treats `:`, `;`, `#`
 * (entities), `%` (comments, directives), quotes and brackets as syntax, and some labels as HTML,
 * so those go; what is left cannot end the statement or inject markup.
 */
export function mermaidText(text: string, max = MAX_NAME): string {
  return shorten(
    text
      .replace(/[:;#%<>"'`{}[\]()\\|&]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/** Text inside a code span: a backtick would end it early. */
export function code(text: string, max = MAX_NAME * 2): string {
  return `\`${shorten(text, max)
    .replace(/`/g, "'")
    .replace(/[\r\n]+/g, ' ')}\``;
}

/** A code span inside a table cell: GFM splits cells on `|` even in code, unless escaped. */
export function codeCell(text: string, max = MAX_NAME * 2): string {
  return code(text, max).replace(/\|/g, '\\|');
}

/**
 * A sentence whose backtick-quoted parts (`--max-num-seqs`, `loadTest: <path>`) are code: those
 * become code spans, everything else is escaped as `md` does. `cell` for a table cell.
 */
export function prose(text: string, max = MAX_SENTENCE, cell = false): string {
  const parts = shorten(text, max).split(/`([^`\r\n]*)`/);
  return parts.map((part, i) => (i % 2 === 1 ? (cell ? codeCell(part) : code(part)) : md(part, max))).join('');
}
