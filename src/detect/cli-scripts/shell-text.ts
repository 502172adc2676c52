import { dirOf } from '../kit/paths.js';

/** One command as the shell runs it: its continued lines joined, with the lines it spans (1-based). */
export interface LogicalCommand {
  text: string;
  from: number;
  to: number;
}

/** A variable set in the file (`X=v`, `export X="v"`, `X := v`, `$X = "v"`, a YAML `X: v`), with its line. */
export interface Assignment {
  name: string;
  value: string;
  line: number;
}

// A line continued on the next: `\` (shells, Make), a backtick (PowerShell), `^` (cmd).
const CONTINUED = /(?:\\|`|\s\^)\s*$/;
const COMMENT = /^\s*(?:#|\/\/|rem\s|::)/i;
const SHELL_SET =
  /^\s*(?:export\s+|readonly\s+|local\s+|declare\s+(?:-\w+\s+)*|set\s+-gx\s+)?([A-Za-z_]\w*)\s*(?::=|\?=|::=|\+=|=)\s*(.*)$/;
const POWERSHELL_SET = /^\s*\$(?:env:)?([A-Za-z_]\w*)\s*=\s*(.*)$/i;
const YAML_SET = /^\s*-?\s*([A-Za-z_]\w*):\s+(\S.*)$/;
const SOURCE = /^\s*(?:source|\.|include|-include)\s+(["']?)([^"'\s;]+)\1/;

/**
 * The commands of a script, Makefile, CI workflow or Ansible task, each with its continuation
 * lines joined: a line ending in a continuation mark, or a line of flags (`--num-nodes 3`) right
 * after a command (a folded YAML block, `shell: >`), belongs to the command above it. Whole-line
 * comments are left out, and so is a comment after a command.
 */
export function logicalCommands(text: string): LogicalCommand[] {
  const lines = text.split('\n');
  const out: LogicalCommand[] = [];
  let current: LogicalCommand | null = null;
  let continued = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] ?? '').replace(/\r$/, '');
    if (COMMENT.test(raw)) {
      // A comment line inside a continued command ends it, as the shell reads it.
      if (current !== null) out.push(current);
      current = null;
      continued = false;
      continue;
    }
    const body = raw.replace(/\s#\s.*$/, '').replace(CONTINUED, ' ');
    const flagLine = /^\s*--?[A-Za-z]/.test(raw);
    if (current !== null && (continued || flagLine)) {
      current.text += ` ${body.trim()}`;
      current.to = i + 1;
    } else {
      if (current !== null) out.push(current);
      current = { text: body.trim(), from: i + 1, to: i + 1 };
    }
    continued = CONTINUED.test(raw.replace(/\s#\s.*$/, ''));
  }
  if (current !== null) out.push(current);
  return out.filter((c) => c.text !== '');
}

/** What the file sets, by name, in order; a YAML file's keys too (a workflow's `env:`, Ansible's `vars:`). */
export function assignments(path: string, text: string): Assignment[] {
  const out: Assignment[] = [];
  const yaml = /\.ya?ml$/i.test(path);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (COMMENT.test(raw)) continue;
    const m = SHELL_SET.exec(raw) ?? POWERSHELL_SET.exec(raw) ?? (yaml ? YAML_SET.exec(raw) : null);
    if (m === null || m[1] === undefined) continue;
    const value = (m[2] ?? '').replace(/\s+#.*$/, '').trim();
    if (!yaml && value.startsWith('(')) {
      // A shell array (`args=(--spot\n  --max-nodes=3)`), on as many lines as its parentheses take.
      const array = shellArray(lines, i, value);
      out.push({ name: m[1], value: array.value, line: i + 1 });
      i = array.last;
      continue;
    }
    out.push({ name: m[1], value: unquote(value), line: i + 1 });
  }
  return out;
}

/**
 * A shell array's elements as one line of words, from the line that opens it to the one that
 * closes it (comment lines inside left out), and the index of that last line. Its elements are
 * put into a command by `"\${name[@]}"`, words as they are written.
 */
function shellArray(lines: readonly string[], at: number, first: string): { value: string; last: number } {
  const parts: string[] = [];
  let depth = 0;
  let i = at;
  for (let text = first; ; text = (lines[++i] ?? '').replace(/\s+#.*$/, '').trim()) {
    if (i > at && COMMENT.test(lines[i] ?? '')) continue;
    depth += parenDepth(text);
    parts.push(text);
    if (depth <= 0 || i >= lines.length - 1) break;
  }
  return {
    value: parts
      .join(' ')
      .replace(/^\(\s*/, '')
      .replace(/\s*\)\s*;?$/, ''),
    last: i,
  };
}

/** Opening minus closing parentheses of a line, outside quotes. */
function parenDepth(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (const c of text) {
    if (quote !== null) quote = c === quote ? null : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  return depth;
}

function unquote(value: string): string {
  const m = /^"([^"]*)"\s*;?$|^'([^']*)'\s*;?$/.exec(value);
  return m ? (m[1] ?? m[2] ?? '') : value.replace(/;$/, '');
}

/**
 * The repository paths of the files a script reads its variables from (`source env.sh`,
 * `. ./vars.rc`, a Makefile's `include`), taken from the script's folder, as it is run from there;
 * a leading variable that stands for that folder (`"${DIR}/env.sh"`, `$(dirname "$0")/env.sh`) is
 * read the same way.
 */
export function sourcedFiles(path: string, text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = SOURCE.exec(line);
    const target = m?.[2];
    if (target === undefined) continue;
    const rel = target.replace(/^(?:\$\{?\w+\}?|\$\(dirname\s+"?\$0"?\)|\$PSScriptRoot)[/\\]/, '');
    if (rel.includes('$') || rel.startsWith('/') || rel.startsWith('~')) continue;
    const joined = joinPath(dirOf(path), rel);
    if (joined !== null && joined !== path) out.push(joined);
  }
  return [...new Set(out)];
}

/** `dir/rel` with `.` and `..` taken out; null when it leaves the repository. */
function joinPath(dir: string, rel: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const p of rel.replace(/\\/g, '/').split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}
