import { isMap, isScalar, isSeq, LineCounter, stringify } from 'yaml';
import { parseAllDocumentsLinear, parseDocumentLinear } from '../../util/yaml-linear.js';
import type { Node } from 'yaml';
import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import type { CapacityParser, ParseResult, Unfollowed } from '../parser.js';
import { evaluate, evaluatePartly, Unk } from './expr-eval.js';
import type { PValue, Scope, Value } from './expr-eval.js';
import type { Locator, Span } from './locator.js';
import { asRecord } from './module-scope.js';
import { entries } from './gke.js';
import { valueFingerprint } from './inputs-fingerprint.js';
import { exprText } from './pool-context.js';
import { withBound } from './resources.js';
import { RENDERS_TEMPLATE } from './template-data.js';

/**
 * Kubernetes objects written in Terraform: the `manifest` object of a `kubernetes_manifest`
 * (hashicorp/kubernetes) and the `yaml_body = yamlencode({ … })` of a `kubectl_manifest`
 * (gavinbunney or alekc kubectl). Karpenter NodePools and Kueue ClusterQueues of clusters run
 * from Terraform are often declared this way. A `yaml_body` heredoc is YAML as written and is
 * read as any heredoc of the file is.
 */
export const MANIFEST_RESOURCE_TYPES = ['kubernetes_manifest', 'kubectl_manifest'] as const;

const GPU_TEXT = /nvidia\.com\/|amd\.com\/gpu|gpu\.intel\.com\/|\bgpu/i;
const YAMLENCODE = /^\$\{\s*yamlencode\s*\(([\s\S]*)\)\s*\}$/;

type YamlPath = (string | number)[];

/**
 * Whether a manifest's source may declare capacity: it names a GPU, is templated, or holds a kind
 * a manifest reader takes (a Karpenter pool allowing GPU instance families names no GPU).
 */
function mayDeclare(file: string, raw: string, inner: readonly CapacityParser[]): boolean {
  return GPU_TEXT.test(raw) || TEMPLATED.test(raw) || inner.some((p) => p.mightContain(`${file}#manifest.yaml`, raw));
}

/**
 * The objects of the manifest resources of one file, read by the manifest readers (`inner`) as
 * the YAML they render to, with lines mapped back to the keys in the `.tf` file.
 */
export function readManifestResources(
  file: string,
  body: Record<string, unknown>,
  loc: Locator,
  scope: Scope,
  inner: readonly CapacityParser[],
): Required<ParseResult> & { notFollowed: Unfollowed[] } {
  const out: Required<ParseResult> & { notFollowed: Unfollowed[] } = { decls: [], diagnostics: [], unresolved: [], notFollowed: [] };
  const resources = asRecord(body.resource);
  for (const type of MANIFEST_RESOURCE_TYPES) {
    for (const [label, blocks] of Object.entries(asRecord(resources[type]))) {
      const block = loc.path(loc.file(), [['resource', type, label]]);
      if (!block || !Array.isArray(blocks)) continue;
      const raw = asRecord(blocks[blocks.length - 1]);
      const source = manifestSource(type, raw);
      // A template's GPUs are in the template, read with the set (templates.ts).
      if (source === null || !mayDeclare(file, JSON.stringify(source.raw), inner)) continue;
      const address = `${type}.${label}`;
      const at = loc.path(block, [source.key]) ?? block;
      const read = (instance: string, bound: Scope): void => {
        let value: Value;
        const known = evaluate(source.raw, bound);
        if (known.ok) value = known.value;
        else {
          out.diagnostics.push(unknownAt(file, at.line, instance, source.key, source.raw, known.error));
          // Which objects it declares may still be read, their unknown values as `${?}`: those become count unknown.
          const partly = evaluatePartly(source.raw, { ...bound, placeholders: true });
          if (!partly.ok) {
            // Not even which objects it declares can be told (a template missing or unreadable): not followed, never "removed".
            const fingerprint = JSON.stringify([known.error, valueFingerprint(source.raw, bound)]);
            out.notFollowed.push({ file, line: at.line, reason: 'count-unknown', subject: instance, fingerprint });
            return;
          }
          value = withPlaceholders(partly.value);
        }
        if (typeof value === 'string') for (const doc of yamlDocuments(value)) readObject(file, instance, doc, loc, at, out, inner);
        else readObject(file, instance, value, loc, at, out, inner);
      };
      const instances = copiesOf(raw, scope);
      if ('culprit' in instances) {
        const key = raw.for_each !== undefined ? 'for_each' : 'count';
        out.diagnostics.push(unknownAt(file, loc.path(block, [key])?.line ?? block.line, address, key, raw[key], instances.culprit));
        continue;
      }
      for (const { key, bound } of instances)
        read(
          key === null ? address : `${address}[${JSON.stringify(key)}]`,
          bound === null ? scope : withBound(scope, bound.name, bound.value),
        );
    }
  }
  return out;
}

function unknownAt(file: string, line: number, address: string, key: string, raw: unknown, culprit: string): Diagnostic {
  const text = typeof raw === 'string' ? exprText(raw) : null;
  const via = text === null || culprit.startsWith(text) ? `comes from ${culprit}` : `= ${text} uses ${culprit}`;
  return diagnostic(file, line, 'warning', `${address}: ${key} ${via}: cannot tell the GPU count`);
}

type Instance = { key: Value; bound: { name: string; value: Value } | null };

/**
 * The resource's instances: one without count or for_each; none, one or more with them (a
 * feature flag `count = var.enabled ? 1 : 0` is the common case). Objects of one name are one
 * object in the cluster, so `count` above 1 reads it once.
 */
function copiesOf(raw: Record<string, unknown>, scope: Scope): Instance[] | { culprit: string } {
  if (raw.for_each !== undefined) {
    const v = evaluate(raw.for_each, scope);
    if (!v.ok) return { culprit: v.error };
    return entries(v.value).map(([key, value]) => ({ key, bound: { name: 'each', value: { key, value } } }));
  }
  if (raw.count === undefined) return [{ key: null, bound: null }];
  const v = evaluate(raw.count, scope);
  if (!v.ok) return { culprit: v.error };
  const n = typeof v.value === 'number' ? v.value : typeof v.value === 'boolean' ? Number(v.value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0) return { culprit: `a count of ${JSON.stringify(v.value)}` };
  return n === 0 ? [] : [{ key: null, bound: { name: 'count', value: { index: 0 } } }];
}

interface ManifestSource {
  key: 'manifest' | 'yaml_body';
  raw: unknown;
}

// `yamldecode(file("nodepool.yaml"))` or `yamldecode(<<EOF … EOF)`: YAML the manifest readers
// read where it is written (the file itself, or the heredoc in this one).
const YAMLDECODE = /^\$\{\s*yamldecode\s*\(/;

// A rendered template (`templatefile("nodepool.yaml.tftpl", { gpus = var.gpus })`, `data.template_file.x.rendered`):
// only the render shows its GPUs.
const TEMPLATED = RENDERS_TEMPLATE;

function manifestSource(type: string, raw: Record<string, unknown>): ManifestSource | null {
  if (type === 'kubernetes_manifest' && raw.manifest !== undefined) {
    const templated = typeof raw.manifest === 'string' && TEMPLATED.test(raw.manifest);
    return typeof raw.manifest === 'string' && YAMLDECODE.test(raw.manifest) && !templated ? null : { key: 'manifest', raw: raw.manifest };
  }
  if (typeof raw.yaml_body === 'string' && TEMPLATED.test(raw.yaml_body)) return { key: 'yaml_body', raw: raw.yaml_body };
  // hcl2json prints a call as one `${…}` string; its argument is the object to read.
  const body = typeof raw.yaml_body === 'string' ? YAMLENCODE.exec(raw.yaml_body) : null;
  return body?.[1] === undefined ? null : { key: 'yaml_body', raw: `\${${body[1]}}` };
}

/** A value with its unknown parts written `${?}`, as a template the readers cannot count. */
function withPlaceholders(v: PValue): Value {
  if (v instanceof Unk) return '${?}';
  if (Array.isArray(v)) return v.map(withPlaceholders);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withPlaceholders(x)]));
  return v;
}

/** The documents of a YAML text rendered by a template; none when it is not YAML. */
function yamlDocuments(text: string): Value[] {
  try {
    return parseAllDocumentsLinear(text)
      .filter((d) => d.errors.length === 0)
      .map((d) => d.toJS({ maxAliasCount: 100 }) as Value);
  } catch {
    return [];
  }
}

function readObject(
  file: string,
  address: string,
  value: Value,
  loc: Locator,
  at: Span,
  out: Required<ParseResult> & { notFollowed: Unfollowed[] },
  inner: readonly CapacityParser[],
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  // Written as YAML 1.1, as the manifest readers read it (kube-yaml.ts): a string such as "N" or "010"
  // stays quoted, never read back as false or 8.
  const text = stringify(value, { version: '1.1' });
  // A YAML path: the manifest readers take plain YAML by its extension.
  const alias = `${file}#${address}.yaml`;
  const lines = lineMapper(text, loc, at);
  for (const parser of inner) {
    if (!parser.mightContain(alias, text)) continue;
    const r = parser.parse(alias, text);
    for (const d of r.decls)
      out.decls.push({ ...d, file, line: lines(d.line), parts: d.parts.map((p) => ({ ...p, line: lines(p.line) })) });
    for (const u of r.unresolved ?? []) out.unresolved.push({ ...u, file, line: lines(u.line) });
    // What a reader does not follow (a ComputeClass's GPU priorities, fingerprinted) is not
    // followed here as in the YAML form: a change to it is named, an edit beside it passes.
    for (const n of r.notFollowed ?? []) out.notFollowed.push({ ...n, file, line: n.line === null ? null : lines(n.line) });
    for (const d of r.diagnostics) out.diagnostics.push(relocated(d, file, address, lines));
  }
}

function relocated(d: Diagnostic, file: string, address: string, lines: (line: number) => number): Diagnostic {
  return { ...d, file, line: d.line === null ? null : lines(d.line), message: `${address}: ${d.message}` };
}

/**
 * Maps a line of the rendered YAML to the line of the same key in the `.tf` file: the YAML key
 * path at that line, followed through the HCL object as far as it can be (not into a key built
 * by an expression, nor inside `yamlencode(…)`); the attribute's own line where it cannot.
 */
function lineMapper(text: string, loc: Locator, at: Span): (line: number) => number {
  const lc = new LineCounter();
  const doc = parseDocumentLinear(text, { lineCounter: lc });
  return (line) => {
    let span = at;
    for (const step of pathAtLine(doc.contents, line, lc) ?? []) {
      const next = typeof step === 'number' ? loc.element(span, step) : loc.child(span, step);
      if (next === null) break;
      span = next;
    }
    return span.line;
  };
}

/** The key path of the deepest pair or item that starts on `line`, or null. */
function pathAtLine(node: Node | null, line: number, lc: LineCounter, path: YamlPath = []): YamlPath | null {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : null;
      if (key === null) continue;
      const start = pair.key && isScalar(pair.key) && pair.key.range ? lc.linePos(pair.key.range[0]).line : null;
      const value = pair.value as Node | null;
      const deeper = pathAtLine(value, line, lc, [...path, key]);
      if (deeper !== null) return deeper;
      if (start === line) return [...path, key];
    }
  } else if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const deeper = pathAtLine(node.items[i] as Node, line, lc, [...path, i]);
      if (deeper !== null) return deeper;
    }
  }
  return null;
}
