/**
 * Blanks out template syntax so that a templated manifest still parses as YAML, keeping every
 * character position (and so every line and source range) of the original text. Readers take
 * values from the masked parse but quote the original text, so a masked value is reported as
 * the template expression it was, never read as a number.
 */
const DIRECTIVE_LINE_RE = /^\s*(?:\{\{-?\s*(?:if|else|end|range|with|define|template|include|block|\/\*)\b.*\}\}|%\{.*\})\s*$/;
const DOC_COMMENT_RE = /^(\s*)\/\/.*$/;
const TOOLKIT_RE = /\$\((?:vars|module|[a-z_][\w-]*)\.[^)\n]*\)/g;

export function maskTemplates(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      // Directives and lines that are one whole expression render to unknown YAML: drop them.
      if (DIRECTIVE_LINE_RE.test(line)) return blankComment(line);
      // Documentation blocks sometimes carry `// note` lines inside YAML.
      if (DOC_COMMENT_RE.test(line)) return blankComment(line);
      const masked = maskExpressions(line).replace(TOOLKIT_RE, (m) => 'x'.repeat(m.length));
      if (masked !== line && /^\s*x+\s*$/.test(masked) && !/^\s*x+\s*$/.test(line)) return blankComment(line);
      return masked;
    })
    .join('\n');
}

/** `${…}`, `$${…}`, `%{…}` and `{{…}}`, with nested braces balanced (`${a ? "${b}" : ""}`). */
function maskExpressions(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const open = /^(?:\$\$?\{|%\{|\{\{)/.exec(line.slice(i, i + 3));
    if (!open) {
      out += line[i];
      i++;
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < line.length; j++) {
      if (line[j] === '{') depth++;
      else if (line[j] === '}' && --depth === 0) break;
    }
    if (j >= line.length) {
      out += line.slice(i);
      break;
    }
    out += 'x'.repeat(j + 1 - i);
    i = j + 1;
  }
  return out;
}

function blankComment(line: string): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return line.length > indent.length ? `${indent}#${' '.repeat(line.length - indent.length - 1)}` : line;
}
