const MAX_NAME = 80;
export const MAX_SENTENCE = 400;

/** Text from user files, made safe for a markdown table cell or line: no HTML, no table breaks. */
export function md(text: string, max = MAX_NAME): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  // Markdown's own characters first, so the escapes added after them stay as they are.
  return short
    .replace(/[\r\n]+/g, ' ')
    .replace(/([\\`*_[\]#!~])/g, '\\$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}

/** Text for inside a mermaid statement: mermaid treats `:`, `;` and `#` as syntax. */
export function mermaidText(text: string): string {
  return text.replace(/[:;#<>"`{}[\]]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_NAME);
}

/** Text inside a code span: a backtick would end it early. */
export function code(text: string, max = MAX_NAME * 2): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `\`${short.replace(/`/g, "'").replace(/[\r\n]+/g, ' ')}\``;
}
