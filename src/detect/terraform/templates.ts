import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { dirOf } from '../kit/paths.js';
import type { AccountedLines, CapacityParser, ParseResult, SourceFile, Unfollowed } from '../parser.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { valueFingerprint } from './inputs-fingerprint.js';
import { MANIFEST_RESOURCE_TYPES } from './k8s-manifests.js';
import { RESOURCE_KINDS } from './resources.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';
import { RENDERS_TEMPLATE } from './template-data.js';
import { isTfFile } from './tf-json.js';

// `templatefile("x.tftpl", …)`, `file("x.yaml")`, `"${path.module}/x.yaml"`; in JSON syntax the quotes are escaped.
const CALL = /\b(templatefile|file)\s*\(\s*\\?"((?:\$\{path\.(?:module|root|cwd)\}\/)?[^"\\$]+)\\?"/g;

/** `dir` joined with a relative path; null when it climbs out of the repository. */
function under(dir: string, rel: string): string | null {
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(step);
  }
  return out.join('/');
}

/** Repository paths of the files a Terraform file reads with `file()` and `templatefile()`: read with its folder. */
export function fileReferences(file: SourceFile): string[] {
  if (!isTfFile(file.path)) return [];
  const out = new Set<string>();
  for (const m of file.text.matchAll(CALL)) {
    const rel = (m[2] ?? '').replace(/^\$\{path\.(?:module|root|cwd)\}\//, '');
    const path = rel.startsWith('/') ? null : under(dirOf(file.path), rel);
    if (path !== null && path !== '') out.add(path);
  }
  return [...out].sort();
}

/** The templates a set renders: their own readings (YAML with `${…}` in it) are replaced by the render. */
export function renderedTemplates(files: readonly SourceFile[]): string[] {
  const inSet = new Set(files.map((f) => f.path));
  return [
    ...new Set(
      files
        .filter((f) => isTfFile(f.path) && f.text.includes('templatefile'))
        .flatMap((f) => [...f.text.matchAll(CALL)].filter((m) => m[1] === 'templatefile').map((m) => m[2] ?? ''))
        .map((rel) => under(dirOf(files.find((f) => isTfFile(f.path))?.path ?? ''), rel.replace(/^\$\{path\.(?:module|root|cwd)\}\//, '')))
        .filter((p): p is string => p !== null && inSet.has(p)),
    ),
  ].sort();
}

/**
 * The templates of a set that its `data "template_file"` blocks render (`template = file("x.tpl")`)
 * into a resource or module argument, where the render is read: those are read as rendered. One
 * whose render goes elsewhere first (a local) keeps its own reading, so what it declares is not lost.
 */
export function dataRenderedTemplates(
  parsed: readonly { path: string; body: Record<string, unknown> }[],
  files: readonly SourceFile[],
): string[] {
  const inSet = new Set(files.map((f) => f.path));
  const handed = new Set(
    parsed.flatMap((f) =>
      [...JSON.stringify([f.body.resource ?? null, f.body.module ?? null]).matchAll(/\bdata\.template_file\.([\w-]+)/g)].map((m) => m[1]),
    ),
  );
  const out = new Set<string>();
  for (const f of parsed) {
    for (const [label, blocks] of Object.entries(asRecord(asRecord(f.body.data).template_file))) {
      if (!handed.has(label)) continue;
      for (const block of Array.isArray(blocks) ? blocks : [blocks]) {
        const template = asRecord(block).template;
        for (const m of typeof template === 'string' ? template.matchAll(CALL) : []) {
          const path = under(dirOf(f.path), (m[2] ?? '').replace(/^\$\{path\.(?:module|root|cwd)\}\//, ''));
          if (path !== null && inSet.has(path)) out.add(path);
        }
      }
    }
  }
  return [...out].sort();
}

const TEMPLATED = RENDERS_TEMPLATE;

export type TemplateReading = Required<ParseResult> & { notFollowed: Unfollowed[]; accounted: AccountedLines[] };

/**
 * Resources that carry a render to what applies it (a chart's values, a file, a command): what
 * they are besides the render is no capacity, so what is found in the render stands for the whole
 * block. Any other resource (a node group of a provider no reader knows) is its own capacity: the
 * render accounts for its attribute alone, and what sizes the resource beside it is part of what
 * the render is given.
 */
const CARRIERS = new Set(['helm_release', 'local_file', 'local_sensitive_file', 'null_resource', 'terraform_data']);
// Terraform's own arguments that copy a resource.
const COPIES = new Set(['count', 'for_each']);

/**
 * What boots a node of a pool that is read (a cloud-init script): the pool's GPUs come from its
 * type and counts, which its reader reads; a boot script adds no node and no GPU.
 */
const BOOT_DATA = new Set(['cloud_init_user_data', 'user_data', 'user_data_base64', 'custom_data']);

function withoutBootData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBootData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !BOOT_DATA.has(k))
      .map(([k, v]) => [k, withoutBootData(v)]),
  );
}

/**
 * What templates render where a resource or module is handed them (a `helm_release`'s values, a
 * `local_file`'s content, a `null_resource` applying a manifest, a module input): the render,
 * with its vars, read by the manifest readers `inner` at the attribute's line. The manifest
 * resources are read in k8s-manifests.ts. A render that cannot be told (its vars are not known)
 * of a template that names GPUs is not followed, fingerprinted by what it is given.
 */
export function readTemplateAttributes(
  file: string,
  body: Record<string, unknown>,
  loc: Locator,
  scope: Scope,
  inner: readonly CapacityParser[],
): TemplateReading {
  const out: TemplateReading = { decls: [], diagnostics: [], unresolved: [], notFollowed: [], accounted: [] };
  const blocks: { address: string; path: readonly string[]; raw: Record<string, unknown>; carrier: boolean }[] = [];
  for (const [type, byLabel] of Object.entries(asRecord(body.resource))) {
    if ((MANIFEST_RESOURCE_TYPES as readonly string[]).includes(type)) continue;
    for (const [label, list] of Object.entries(asRecord(byLabel))) {
      if (Array.isArray(list))
        blocks.push({
          address: `${type}.${label}`,
          path: ['resource', type, label],
          raw: asRecord(list[list.length - 1]),
          carrier: CARRIERS.has(type),
        });
    }
  }
  for (const [label, list] of Object.entries(asRecord(body.module))) {
    if (Array.isArray(list))
      blocks.push({ address: `module.${label}`, path: ['module', label], raw: asRecord(list[list.length - 1]), carrier: true });
  }
  for (const { address, path, raw, carrier } of blocks) {
    const pool = Object.hasOwn(RESOURCE_KINDS, path[1] ?? '') && path[0] === 'resource';
    for (const [attr, whole] of Object.entries(raw)) {
      if (pool && BOOT_DATA.has(attr)) continue;
      const value = pool ? withoutBootData(whole) : whole;
      if (!TEMPLATED.test(JSON.stringify(value))) continue;
      const block = loc.path(loc.file(), [path]);
      const span = block && loc.child(block, attr);
      const line = span?.line ?? block?.line ?? 1;
      const found = size(out);
      readAttribute(file, address, attr, value, line, carrier ? {} : sizing(raw, attr), scope, inner, out);
      // A carrier's findings stand for its block (accountedOf's default); any other resource's for the attribute's lines.
      if (size(out) === found) continue;
      out.accounted.push(carrier || !span ? { file, from: line, to: line, object: true } : { file, from: line, to: loc.lineAt(span.end) });
    }
  }
  return out;
}

const size = (o: TemplateReading) => o.decls.length + o.unresolved.length + o.notFollowed.length + o.diagnostics.length;

/** A resource's arguments beside `attr` that copy or size it: `count`, `for_each`, `fixed_node_count`, `max_size`. */
function sizing(raw: Record<string, unknown>, attr: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([k]) => k !== attr && (COPIES.has(k) || sizesCapacity(k))));
}

/** One templated attribute: its render read by `inner`, or, when it cannot be told, not followed (with what it is given). */
function readAttribute(
  file: string,
  address: string,
  attr: string,
  value: unknown,
  line: number,
  beside: Record<string, unknown>,
  scope: Scope,
  inner: readonly CapacityParser[],
  out: TemplateReading,
): void {
  const r = evaluate(value, scope);
  if (!r.ok) {
    if (!namesGpu(JSON.stringify(value)) && !templatesNameGpu(value, scope)) return;
    out.diagnostics.push(
      diagnostic(
        file,
        line,
        'warning',
        `${address}: ${attr} renders a template from ${r.error}: the GPU capacity it may declare is not read`,
      ),
    );
    out.notFollowed.push({
      file,
      line,
      reason: 'count-unknown',
      subject: `${address}.${attr}`,
      // What sizes the resource beside the render is part of what it is given: a change there is not the same render.
      fingerprint: JSON.stringify(
        Object.keys(beside).length === 0
          ? valueFingerprint(value, scope)
          : [valueFingerprint(value, scope), valueFingerprint(beside, scope)],
      ),
    });
    return;
  }
  for (const text of strings(r.value)) readRendered(file, `${address}.${attr}`, text, line, inner, out);
}

/** Whether a template the value renders names GPUs (its text, read with the set); a template_file whose text is not known may. */
function templatesNameGpu(value: unknown, scope: Scope): boolean {
  const json = JSON.stringify(value);
  for (const m of json.matchAll(CALL)) {
    const text = scope.file?.((m[2] ?? '').replace(/^\$\{path\.(?:module|root|cwd)\}\//, '')) ?? null;
    if (text !== null && namesGpu(text)) return true;
  }
  for (const m of json.matchAll(/\bdata\.template_file\.([\w-]+)/g)) {
    const label = m[1] ?? '';
    const text = evaluate(`\${data.template_file.${label}.template}`, scope);
    if (!text.ok || typeof text.value !== 'string' || namesGpu(text.value)) return true;
  }
  return false;
}

function strings(v: Value): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

/** A rendered text read by the manifest readers as YAML, every line of it at the attribute's line. */
function readRendered(
  file: string,
  address: string,
  text: string,
  line: number,
  inner: readonly CapacityParser[],
  out: TemplateReading,
): void {
  const alias = `${file}#${address}.yaml`;
  const before = out.decls.length + out.unresolved.length;
  for (const parser of inner) {
    if (!parser.mightContain(alias, text)) continue;
    const r = parser.parse(alias, text);
    out.decls.push(...r.decls.map((d) => ({ ...d, file, line, parts: d.parts.map((p) => ({ ...p, line })) })));
    out.unresolved.push(...(r.unresolved ?? []).map((u) => ({ ...u, file, line })));
    out.diagnostics.push(...r.diagnostics.map((d): Diagnostic => ({ ...d, file, line, message: `${address}: ${d.message}` })));
  }
  // A render that names GPU resources where no reader found capacity: what it declares is not known.
  if (out.decls.length + out.unresolved.length === before && GPU_RESOURCE.test(text)) {
    out.diagnostics.push(
      diagnostic(file, line, 'warning', `${address}: renders text that names GPU resources in a shape this tool does not read`),
    );
    out.notFollowed.push({ file, line, reason: 'count-unknown', subject: address, fingerprint: text });
  }
}

const GPU_RESOURCE = /nvidia\.com\/(gpu|mig-)|amd\.com\/gpu|gpu\.intel\.com\//;
