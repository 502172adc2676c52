import { splitLines } from './lines.js';

/**
 * A stretch of a file to read as YAML. `text` is padded with empty lines so that line
 * numbers in it are the file's line numbers, whatever the segment's position.
 */
export interface YamlSegment {
  text: string;
  /** Inside Markdown or a heredoc: documentation or a script, not a manifest applied as is. */
  embedded: boolean;
}

export type FileFormat = 'yaml' | 'markdown' | 'heredoc-host';

const YAML_EXT = /\.(ya?ml|json|tpl|tftpl)$/i;
const MARKDOWN_EXT = /\.(md|markdown)$/i;
// Scripts and Terraform carry manifests in heredocs (`kubectl apply -f- <<EOF`, `<<-YAML`).
const HEREDOC_EXT = /\.(sh|bash|tf)$/i;

/** A file name with no extension (`queues`, not `Makefile.am`), but the names of build and container files. */
const NO_EXT = /(^|\/)[^./]+$/;
const NOT_YAML =
  /(^|\/)(Makefile|GNUmakefile|Dockerfile|Containerfile|Jenkinsfile|Vagrantfile|Tiltfile|Earthfile|Procfile|Gemfile|Rakefile|Brewfile|Justfile|LICENSE|NOTICE|COPYING|AUTHORS|CODEOWNERS|OWNERS)$/i;
/** Kubernetes objects in YAML: an `apiVersion` and a `kind` at the start of lines (each looked for once: linear). */
const API_VERSION = /^["']?apiVersion["']?[ \t]*:[ \t]*\S/m;
const KIND = /^["']?kind["']?[ \t]*:[ \t]*\S/m;

/**
 * How a file is read, by its name and, for a name with no extension, its text: kustomize reads
 * any file a kustomization names and kubectl one named on its command line, so one with no
 * extension holding Kubernetes objects is YAML. Without the text, such a name may be YAML.
 */
export function fileFormat(path: string, text?: string): FileFormat | null {
  if (YAML_EXT.test(path)) return 'yaml';
  if (NO_EXT.test(path) && !NOT_YAML.test(path) && (text === undefined || (API_VERSION.test(text) && KIND.test(text)))) return 'yaml';
  if (MARKDOWN_EXT.test(path)) return 'markdown';
  if (HEREDOC_EXT.test(path)) return 'heredoc-host';
  return null;
}

export function yamlSegments(path: string, text: string): YamlSegment[] {
  const format = fileFormat(path, text);
  if (format === 'yaml') return [{ text, embedded: false }];
  const lines = splitLines(text);
  if (format === 'markdown') return markdownSegments(lines);
  if (format === 'heredoc-host') return heredocSegments(lines, 0, lines.length);
  return [];
}

function segment(lines: string[], from: number, to: number): YamlSegment {
  return { text: '\n'.repeat(from) + lines.slice(from, to).join('\n'), embedded: true };
}

const FENCE_OPEN_RE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/;

/** Fenced blocks labelled yaml/yml (or unlabelled ones holding a manifest), and heredocs in the others. */
function markdownSegments(lines: string[]): YamlSegment[] {
  const out: YamlSegment[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = FENCE_OPEN_RE.exec(lines[i] ?? '');
    if (!open) {
      i++;
      continue;
    }
    const fence = open[1] ?? '```';
    const info = (open[2] ?? '').toLowerCase();
    const start = i + 1;
    let end = start;
    while (end < lines.length && !isFenceClose(lines[end] ?? '', fence)) end++;
    const body = lines.slice(start, end);
    if (info === 'yaml' || info === 'yml' || (info === '' && body.some((l) => /^\s*apiVersion:/.test(l)))) {
      out.push(segment(lines, start, end));
    } else {
      out.push(...heredocSegments(lines, start, end));
    }
    i = end + 1;
  }
  return out;
}

function isFenceClose(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed === (fence[0] ?? '`').repeat(trimmed.length);
}

// `<<EOF`, `<< 'EOF'`, `<<-YAML`, also when a pipe follows (`cat <<EOF | kubectl apply -f-`).
const HEREDOC_RE = /<<(-?)\s*(['"]?)([A-Za-z_]\w*)\2(?!\w)/;

function heredocSegments(lines: string[], from: number, to: number): YamlSegment[] {
  const out: YamlSegment[] = [];
  let i = from;
  while (i < to) {
    const m = HEREDOC_RE.exec(lines[i] ?? '');
    if (!m) {
      i++;
      continue;
    }
    const tag = m[3] ?? '';
    const start = i + 1;
    let end = start;
    while (end < to && (lines[end] ?? '').trim() !== tag) end++;
    out.push(segment(lines, start, end));
    i = end + 1;
  }
  return out;
}
