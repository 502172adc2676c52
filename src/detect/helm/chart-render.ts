import type { CapacityDecl } from '../../domain/index.js';
import type { CoverageIo } from '../side-readers.js';
import { detectFile } from '../detect-file.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { CAPACITY_KIND_RE, VALUES_REF_RE, isHelmValuesPath } from './helm-chart.js';
import { gitopsInstalls } from './gitops-installs.js';
import { renderTemplate } from './helm-render.js';
import { accountSignals } from '../kit/signal-scan/account.js';
import { kubeStringify } from '../kit/kube-yaml.js';
import { fileFormat } from '../kit/yaml-segments.js';
import type { CapacityParser, SetParseResult, Unfollowed, UnresolvedDecl } from '../parser.js';

/** What rendering the charts a PR touches found at one side. */
type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

export interface ChartRenders {
  base: Side;
  head: Side;
  /** Changed files the renders followed: the values and templates of the charts rendered. */
  followed: string[];
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

/** One way the chart is installed: with its own values.yaml, or with another values file over it. */
interface Variant {
  chart: string;
  values: string;
  /** The changed file this render answers for. */
  changed: string;
  templateChanged: boolean;
}

function yamlOf(text: string | null): unknown {
  if (text === null) return {};
  return yamlValue(text);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Helm's merge of a values file over the chart's defaults: maps merge, anything else replaces. */
function overlay(base: unknown, top: unknown): unknown {
  if (!isObject(base) || !isObject(top)) return top === undefined ? base : top;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(top)) out[k] = overlay(base[k], v);
  return out;
}

async function isChart(dir: string, io: CoverageIo): Promise<boolean> {
  return (await io.list(dir)).includes(join(dir, 'Chart.yaml'));
}

async function variantsOf(changed: readonly string[], io: CoverageIo): Promise<Variant[]> {
  const out: Variant[] = [];
  for (const path of changed) {
    const templates = /^(.*?)\/?templates\/[^/]+$/.exec(path);
    if (templates && (await isChart(templates[1] ?? '', io))) {
      const chart = templates[1] ?? '';
      out.push({ chart, values: join(chart, 'values.yaml'), changed: path, templateChanged: true });
    } else if (isHelmValuesPath(path) && (await isChart(dirOf(path), io))) {
      out.push({ chart: dirOf(path), values: path, changed: path, templateChanged: false });
    }
  }
  return out;
}

/**
 * Charts of the PR rendered at both sides, as far as plain substitutions go (helm-render.ts):
 * a changed values file is followed into the GPU fields of its chart's templates, and a changed
 * template is read with the chart's values. A template that does not render, or whose GPU count
 * stays an expression, is not followed, unless it renders the same at both sides.
 */
export async function renderCharts(changed: readonly string[], io: CoverageIo, parsers: readonly CapacityParser[]): Promise<ChartRenders> {
  const empty = (): Side => ({ decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] });
  const result: ChartRenders = { base: empty(), head: empty(), followed: [] };
  for (const v of await variantsOf(changed, io)) {
    const templates = (await io.list(join(v.chart, 'templates'))).filter((p) => /\.(ya?ml|tpl)$/i.test(p) && !p.endsWith('.tpl'));
    const own = v.values === join(v.chart, 'values.yaml');
    let followedAny = false;
    for (const side of ['base', 'head'] as const) {
      const reader = io[side];
      const defaults = yamlOf(await reader.read(join(v.chart, 'values.yaml')));
      const values = own ? defaults : overlay(defaults, yamlOf(await reader.read(v.values)));
      for (const template of templates) {
        const text = await reader.read(template);
        // Capacity objects only: a workload asking for GPUs is no capacity, whatever its values.
        if (text === null || !(CAPACITY_KIND_RE.test(text) || parsers.some((p) => p.mightContain(template, text)))) continue;
        const refs = [...text.matchAll(VALUES_REF_RE)].map((m) => (m[1] ?? '').slice(1));
        if (refs.length === 0) continue;
        followedAny = true;
        readRender(result[side], v, own, template, text, values, refs, parsers);
      }
    }
    if (followedAny) result.followed.push(v.changed);
  }
  for (const path of changed) if (fileFormat(path) === 'yaml') await renderInstalls(path, io, parsers, result);
  return result;
}

/** The chart's capacity templates that read values: what a render of it could count. */
async function capacityTemplates(chart: string, reader: CoverageIo['head'], io: CoverageIo, parsers: readonly CapacityParser[]) {
  const out: { template: string; text: string; refs: string[] }[] = [];
  for (const template of (await io.list(join(chart, 'templates'))).filter((p) => /\.ya?ml$/i.test(p))) {
    const text = await reader.read(template);
    if (text === null || !(CAPACITY_KIND_RE.test(text) || parsers.some((p) => p.mightContain(template, text)))) continue;
    const refs = [...text.matchAll(VALUES_REF_RE)].map((m) => (m[1] ?? '').slice(1));
    if (refs.length > 0) out.push({ template, text, refs });
  }
  return out;
}

/**
 * An Argo CD Application or Flux HelmRelease the PR changes, installing a chart with values: a
 * chart in this repository is rendered with them at each side, its objects reported on the
 * changed file; a chart elsewhere, or values the review cannot read (a Secret), is not followed
 * there when what it is given names GPUs (or the chart here renders capacity from values).
 */
async function renderInstalls(path: string, io: CoverageIo, parsers: readonly CapacityParser[], result: ChartRenders): Promise<void> {
  const at = { base: gitopsInstalls((await io.base.read(path)) ?? ''), head: gitopsInstalls((await io.head.read(path)) ?? '') };
  const keys = [...new Set([...at.base, ...at.head].map((i) => i.key))];
  let followed = false;
  for (const key of keys) {
    const sides = { base: at.base.find((i) => i.key === key), head: at.head.find((i) => i.key === key) };
    const chart = (sides.head ?? sides.base)?.chart;
    if (chart === undefined) continue;
    const local = 'local' in chart && (await isChart(chart.local, io)) ? chart.local : null;
    for (const side of ['base', 'head'] as const) {
      const install = sides[side];
      if (install === undefined) continue;
      const reader = io[side];
      const files = await Promise.all(install.valueFiles.map(async (f) => ({ f, text: await reader.read(f) })));
      const given = [...files.map((f) => yamlOf(f.text)), ...install.inline];
      if (local === null) {
        const shown = kubeStringify(given);
        if (accountSignals('values.yaml', shown).signals.length === 0) continue;
        const needs = 'remote' in chart ? chart.remote : `${chart.local} (no Chart.yaml there)`;
        const fingerprint = JSON.stringify([needs, given]);
        result[side].notFollowed.push({
          file: path,
          line: null,
          reason: 'gitops-install',
          subject: key,
          needs,
          inputs: ['the chart is not in this repository'],
          fingerprint,
        });
        followed = true;
        continue;
      }
      const templates = await capacityTemplates(local, reader, io, parsers);
      if (templates.length === 0) continue;
      followed = true;
      const missing = [...install.unread, ...files.filter((f) => f.text === null).map((f) => `valueFiles ${f.f} (not in the repository)`)];
      if (missing.length > 0) {
        result[side].notFollowed.push({
          file: path,
          line: null,
          reason: 'gitops-install',
          subject: key,
          needs: local,
          inputs: missing,
          fingerprint: JSON.stringify([local, missing, given]),
        });
      }
      let values = yamlOf(await reader.read(join(local, 'values.yaml')));
      for (const layer of given) values = overlay(values, layer);
      const v: Variant = { chart: local, values: path, changed: path, templateChanged: false };
      for (const t of templates) readRender(result[side], v, false, t.template, t.text, values, t.refs, parsers);
    }
  }
  if (followed) result.followed.push(path);
}

function readRender(
  out: Side,
  v: Variant,
  own: boolean,
  template: string,
  text: string,
  values: unknown,
  refs: readonly string[],
  parsers: readonly CapacityParser[],
): void {
  const reason = v.templateChanged ? 'helm-template' : 'helm-values';
  const rendered = values === undefined ? null : renderTemplate(text, values);
  if (rendered === null || !rendered.ok) {
    // Same template, same values it reads: whatever it renders did not change.
    const fingerprint = JSON.stringify([text, refs.map((r) => valueAt(values, r))]);
    const why = rendered === null ? `${v.values} is not valid YAML` : `${rendered.why} at line ${rendered.line}`;
    out.notFollowed.push({ file: v.changed, line: null, reason, subject: template, needs: template, inputs: [why], fingerprint });
    return;
  }
  const found = detectFile(template, rendered.text, parsers);
  // The chart's own values render the objects of the template; another values file, its own copies.
  const place = <T extends { file: string; line: number }>(x: T): T =>
    own ? { ...x, line: rendered.lineOf(x.line) } : { ...x, file: v.values, line: 1 };
  out.decls.push(
    ...found.decls.map((d): CapacityDecl => ({
      ...place(d),
      parts: d.parts.map((p) => (own ? { ...p, line: rendered.lineOf(p.line) } : { ...p, line: 1 })),
    })),
  );
  out.unresolved.push(...(found.unresolved ?? []).map((u): UnresolvedDecl => place(u)));
  out.diagnostics.push(
    ...found.diagnostics.map((d) =>
      own ? { ...d, line: d.line === null ? null : rendered.lineOf(d.line) } : { ...d, file: v.values, line: null },
    ),
  );
  if (own) out.supersedes.push(template);
  // What a reader of the rendered objects could not follow (a ComputeClass that creates GPU pools,
  // say) stays not followed, on the changed file, with the reader's own fingerprint.
  for (const n of found.notFollowed ?? []) out.notFollowed.push({ ...n, file: v.changed, line: null });
  for (const u of found.unresolved ?? []) {
    if (u.unboundedBy !== undefined) continue;
    out.notFollowed.push({
      file: v.changed,
      line: null,
      reason,
      subject: template,
      needs: template,
      inputs: [`the GPU count of ${u.name}`],
      // The expression left in the GPU field reads values the render did not substitute.
      fingerprint: JSON.stringify([rendered.text, refs.map((r) => valueAt(values, r))]),
    });
  }
}

function valueAt(values: unknown, path: string): unknown {
  let at = values;
  for (const step of path.split('.')) at = isObject(at) ? at[step] : undefined;
  return at ?? null;
}
