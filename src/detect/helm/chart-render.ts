import type { CapacityDecl } from '../../domain/index.js';
import type { CoverageIo } from '../coverage.js';
import { detectFile } from '../detect-file.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { CAPACITY_KIND_RE, VALUES_REF_RE, isHelmValuesPath } from './helm-chart.js';
import { renderTemplate } from './helm-render.js';
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
  return result;
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
