/** Where a line of a `.tf` file stands: the first line of its top-level block, and whether it is inside its braces. */
export interface TfLineAt {
  block: string | null;
  inside: boolean;
}

/**
 * Each line of a `.tf` file passed through `visit` with where it stands, the file's line breaks
 * kept. Heredoc bodies are passed on unvisited: they are strings, whatever they hold. Braces in
 * strings and comments do not count towards the depth.
 */
export function mapTfLines(text: string, visit: (line: string, at: TfLineAt) => string): string {
  let block: string | null = null;
  let depth = 0;
  let heredoc: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      if (heredoc !== null) {
        if (line.trim() === heredoc) heredoc = null;
        return line;
      }
      if (depth === 0) block = line.trimStart();
      const stripped = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
      const inside = depth > 0;
      depth += (stripped.match(/\{/g) ?? []).length - (stripped.match(/\}/g) ?? []).length;
      const marker = /<<-?\s*([A-Za-z_]\w*)\s*$/.exec(stripped);
      if (marker) heredoc = marker[1] ?? null;
      return visit(line, { block, inside });
    })
    .join('\n');
}
