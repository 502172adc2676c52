/** Lines of one file a parser read, first to last (1-based, inclusive). */
export interface Lines {
  from: number;
  to: number;
}

/** Lines of a text, without line terminators. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Number of lines a reader sees: a final line terminator does not start a new line. */
export function lineCount(text: string): number {
  const lines = splitLines(text);
  return lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

// The last text counted: parsers clamp every line of one file in turn, and counting the lines of
// the whole text again for each would make a file of many declarations quadratic.
let counted: { text: string; lines: number } | null = null;

function linesOf(text: string): number {
  if (counted?.text !== text) counted = { text, lines: lineCount(text) };
  return counted.lines;
}

/** Keeps a reported line inside the file (errors at end of input point past the last line). */
export function clampLine(line: number, text: string): number {
  return Math.min(Math.max(1, line), Math.max(1, linesOf(text)));
}
