import { redactSecrets } from '../util/redact.js';
import { closeIsolates, visible } from '../domain/visible.js';

const MAX_NAME = 80;
export const MAX_SENTENCE = 400;

/**
 * Every string from the PR enters the report through here: written visibly first (bidi controls,
 * zero-width and other invisible characters as `⟨U+202E⟩`, see domain/visible.ts), so it reads as
 * it is, in its order, then shortened. The process's secrets are masked first (domain/redact.ts).
 */
function shorten(text: string, max: number): string {
  // Secrets go before the cut and before any escape: half a secret, or one with a zero-width
  // space inside, is no longer found by the redactor every surface applies at the end.
  const shown = visible(redactSecrets(text));
  return shown.length > max ? `${closeIsolates(shown.slice(0, max - 1))}…` : shown;
}

/** A zero-width space as an entity: invisible, and it parts what GitHub would otherwise link. */
const ZWSP = '&#8203;';

/**
 * Text from user files, made safe for a markdown table cell or line: no HTML (so none of our
 * hidden markers), no table breaks, and nothing GitHub acts on: no @-mention of a user or team,
 * no issue or pull request reference (`#1`, `owner/repo#2`, `GH-3`), no autolinked URL.
 */
export function md(text: string, max = MAX_NAME): string {
  // Markdown's own characters first, so the escapes added after them stay as they are.
  return inert(
    shorten(text, max)
      .replace(/[\r\n]+/g, ' ')
      .replace(/([\\`*_[\]#!~])/g, '\\$1')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\|/g, '\\|'),
  );
}

/**
 * Parts mentions, references and autolinks with a zero-width space; `#` arrives escaped. The
 * `#` rule runs first, so it never meets the `&#8203;` the others add.
 */
function inert(text: string): string {
  return text
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1${ZWSP}-`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/(www)\./gi, `$1${ZWSP}.`)
    .replace(/@(?=[A-Za-z0-9_-])/g, `@${ZWSP}`);
}

/**
 * Text for a place GitHub shows as plain text (a check annotation's title and message): no
 * markdown to escape, but nothing there may mention, reference or form one of our markers either.
 * The zero-width space is the character itself, since entities would show as typed.
 */
export function plain(text: string, max = MAX_SENTENCE * 2): string {
  return noMarkers(
    shorten(text, max)
      .replace(/#(?=\d)/g, '#\u200B')
      .replace(/\b(GH)-(?=\d)/gi, '$1\u200B-')
      .replace(/:\/\//g, ':\u200B//')
      .replace(/(www)\./gi, '$1\u200B.')
      .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200B'),
  );
}

/**
 * Inside a code span GitHub links and mentions nothing, and entities stay as typed; but the
 * comment's raw text still holds the span, so `<!--` or `-->` there could form or close one of
 * our hidden markers. A zero-width space (the character, since entities are literal here)
 * parts them.
 */
function noMarkers(text: string): string {
  return text.replace(/<!/g, '<\u200B!').replace(/--(?=>)/g, '-\u200B-');
}

/**
 * Text for inside a mermaid statement or a quoted mermaid title. Mermaid treats `:`, `;`, `#`
 * (entities), `%` (comments, directives), quotes and brackets as syntax, and some labels as HTML,
 * so those go; what is left cannot end the statement or inject markup.
 */
export function mermaidText(text: string, max = MAX_NAME): string {
  return shorten(
    visible(redactSecrets(text))
      .replace(/[:;#%<>"'`{}[\]()\\|&]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/** Text inside a code span: a backtick would end it early. */
export function code(text: string, max = MAX_NAME * 2): string {
  return `\`${noMarkers(
    shorten(text, max)
      .replace(/`/g, "'")
      .replace(/[\r\n]+/g, ' '),
  )}\``;
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

/**
 * A string from the PR as code inside a sentence `prose` renders later: a backtick in it would pair
 * with ours and end the span early, shifting every span after it. Written as `code` writes one.
 */
export function quoted(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/[\r\n]+/g, ' ')}\``;
}
