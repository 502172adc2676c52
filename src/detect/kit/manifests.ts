import { isScalar, LineCounter, Scalar } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { readYaml } from './kube-yaml.js';
import type { YamlDialect, YamlDoc } from './kube-yaml.js';
import { clampLine } from './lines.js';
import { maskTemplates } from './template-mask.js';
import { mapGet, nodeLine, nodeSource, scalarString } from './yaml-nodes.js';
import { yamlSegments } from './yaml-segments.js';

/** Where a node came from: `text` is the original (unmasked) text the node ranges index into. */
export interface NodeContext {
  file: string;
  text: string;
  lc: LineCounter;
}

/** One YAML document of a file (a Kubernetes object, a config file, Helm values …), or one object of a `List`. */
export interface Manifest {
  root: unknown;
  kind: string | null;
  apiVersion: string | null;
  name: string | null;
  /** Line of the document's first node. */
  line: number;
  ctx: NodeContext;
  /** Inside Markdown, a heredoc or a string value: documentation or a script, not applied as is. */
  embedded: boolean;
  /** `ConfigMap <name>, data.<key>` when the document is YAML held in a string. */
  heldIn?: string;
  /** The ConfigMap and data key holding the document, when `heldIn` is set. */
  holder?: { configMap: string; key: string };
  /** An item of a `List` document: the List's kind. */
  inList?: string;
}

export interface ManifestScan {
  manifests: Manifest[];
  diagnostics: Diagnostic[];
}

/**
 * The documents of a file worth reading: segments (YAML files, Markdown fences, heredocs) the
 * `wanted` check accepts, parsed as written, or with templates masked when that fails, plus
 * YAML held in ConfigMap `data` strings. They are read as kubectl reads them (kube-yaml.ts), the
 * objects of a `List` each a manifest of its own, unless `dialect` names another reader. Documents
 * that stay unreadable get one warning each; one the applier would refuse, an error.
 */
export function readManifests(
  path: string,
  text: string,
  wanted: (text: string) => boolean,
  dialect: YamlDialect = 'kubectl',
): ManifestScan {
  const scan: ManifestScan = { manifests: [], diagnostics: [] };
  for (const seg of yamlSegments(path, text)) {
    if (!wanted(seg.text)) continue;
    readText(path, seg.text, seg.embedded, wanted, scan, undefined, dialect);
  }
  for (const d of scan.diagnostics) if (d.line !== null) d.line = clampLine(d.line, text);
  return scan;
}

function readText(
  file: string,
  text: string,
  embedded: boolean,
  wanted: (t: string) => boolean,
  scan: ManifestScan,
  holder: { configMap: string; key: string } | undefined,
  dialect: YamlDialect,
): void {
  const heldIn = holder ? `ConfigMap ${holder.configMap}, data.${holder.key}` : undefined;
  const docs = parse(text, dialect);
  const masked = docs.some((d) => d.errors.length > 0) ? parse(maskTemplates(text), dialect) : null;
  const use = masked && masked.filter((d) => d.errors.length > 0).length < docs.filter((d) => d.errors.length > 0).length ? masked : docs;
  const lc = use.lc;
  const ctx: NodeContext = { file, text, lc };
  // The objects of one List share its rejections: each is reported once.
  const reported = new Set<unknown>();
  for (const doc of use) {
    if (doc.errors.length > 0) {
      const first = doc.errors[0];
      const [from, to] = doc.range;
      if (!wanted(text.slice(from, to))) continue;
      const line = first ? lc.linePos(first.pos[0]).line : lc.linePos(from).line;
      const message = (first?.message.split('\n')[0] ?? 'unreadable YAML').replace(/ at line \d+, column \d+:?\s*$/, '');
      scan.diagnostics.push(
        diagnostic(
          file,
          line,
          embedded ? 'info' : 'warning',
          `${heldIn ? `${heldIn}: ` : ''}YAML could not be read (${message}); GPU capacity in this document is not counted`,
        ),
      );
      continue;
    }
    // A masked parse is of a template, which no applier reads as it stands.
    if (use !== masked && doc.rejections.length > 0 && !reported.has(doc.rejections)) {
      reported.add(doc.rejections);
      const [from, to] = doc.range;
      if (wanted(text.slice(from, to))) {
        for (const r of doc.rejections) {
          scan.diagnostics.push(
            diagnostic(
              file,
              lc.linePos(r.pos[0]).line,
              embedded ? 'info' : 'error',
              `${heldIn ? `${heldIn}: ` : ''}${APPLIER[dialect]} would not apply this document as written: ${r.message}; what it declares cannot be taken as applied`,
            ),
          );
        }
      }
    }
    const root = doc.contents;
    const manifest: Manifest = {
      root,
      kind: scalarString(mapGet(root, 'kind')),
      apiVersion: scalarString(mapGet(root, 'apiVersion')),
      name:
        use === masked
          ? sourceString(mapGet(mapGet(root, 'metadata'), 'name'), text)
          : scalarString(mapGet(mapGet(root, 'metadata'), 'name')),
      line: nodeLine(root, lc) ?? 1,
      ctx,
      embedded,
    };
    if (doc.inList !== undefined) manifest.inList = doc.inList.kind;
    if (holder !== undefined) {
      manifest.heldIn = heldIn ?? '';
      manifest.holder = holder;
    }
    scan.manifests.push(manifest);
    if (manifest.kind === 'ConfigMap' && heldIn === undefined) readDataStrings(manifest, wanted, scan, dialect);
  }
}

/** A scalar as written (quotes removed), for masked parses whose values hide templates. */
function sourceString(node: unknown, text: string): string | null {
  const source = nodeSource(node, text)
    .trim()
    .replace(/^(["'])(.*)\1$/, '$2');
  return source === '' ? null : source;
}

const APPLIER: Record<YamlDialect, string> = { kubectl: 'kubectl', kustomize: 'kustomize', 'go-yaml-v3': 'go-yaml' };

type ParsedDocs = YamlDoc[] & { lc: LineCounter };

function parse(text: string, dialect: YamlDialect): ParsedDocs {
  const lc = new LineCounter();
  const list = readYaml(text, lc, { dialect, lists: dialect !== 'go-yaml-v3' }) as ParsedDocs;
  list.lc = lc;
  return list;
}

/** Data keys named for YAML (or JSON, which YAML reads). */
const YAML_KEY = /\.(ya?ml|json)$/i;
/** Data keys named for another format: scripts, config languages, text. Never read as YAML. */
const OTHER_KEY =
  /\.(sh|bash|zsh|py|rb|pl|lua|js|mjs|ts|go|sql|toml|ini|cfg|conf|properties|env|txt|csv|tsv|xml|html?|md|j2|jinja2?|tmpl|service|cron|crontab|pem|crt|key)$/i;
/** The first line of a YAML mapping (a key without spaces, or quoted), a list, a flow collection or a document marker. */
const YAML_START = /^(?:---|%YAML|-(?:\s|$)|[{[]|[^\s#:{}[\],&*!|>'"%@`][^\s:#]*:(?:\s|$)|"[^"]*"\s*:(?:\s|$)|'[^']*'\s*:(?:\s|$))/;

/**
 * Whether a data value is YAML to read: its key's extension decides when it has one; otherwise its
 * text must start as YAML does. A shell script, a Python file or a CSV of metrics is text that
 * names GPUs, not YAML, and is never read as capacity (nor reported as YAML that would not parse).
 */
function heldYaml(key: string, text: string): boolean {
  if (YAML_KEY.test(key)) return true;
  if (OTHER_KEY.test(key) || text.startsWith('#!')) return false;
  const first = text.split('\n').find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return first !== undefined && YAML_START.test(first.trimStart());
}

/** ConfigMap `data` values that hold YAML (device-plugin configs, manifests rendered by a hook). */
function readDataStrings(cm: Manifest, wanted: (t: string) => boolean, scan: ManifestScan, dialect: YamlDialect): void {
  const data = mapGet(cm.root, 'data');
  if (!data || typeof data !== 'object' || !('items' in data)) return;
  for (const pair of (data as { items: { key: unknown; value: unknown }[] }).items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : null;
    const value = pair.value;
    if (key === null || !isScalar(value) || typeof value.value !== 'string') continue;
    if (!wanted(value.value) || !value.value.includes(':') || !heldYaml(key, value.value)) continue;
    const header = nodeLine(value, cm.ctx.lc) ?? cm.line;
    // A literal block's lines start on the line after its `|` header; other styles cannot be
    // mapped line by line, so their contents are placed at the value's own line.
    const literal = value.type === Scalar.BLOCK_LITERAL;
    const padded = '\n'.repeat(literal ? header : header - 1) + value.value;
    readText(cm.ctx.file, padded, cm.embedded, wanted, scan, { configMap: cm.name ?? '(unnamed)', key }, dialect);
  }
}
