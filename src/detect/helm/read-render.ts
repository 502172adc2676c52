import type { CapacityDecl } from '../../domain/index.js';
import { detectFile } from '../detect-file.js';
import type { CapacityParser, SetParseResult, Unfollowed, UnresolvedDecl } from '../parser.js';
import { VALUES_REF_RE } from './helm-chart.js';
import { renderChartTemplate } from './gotmpl/render.js';
import type { RenderFailure } from './gotmpl/render.js';
import type { ChartTemplate } from './gotmpl/render.js';

/** What rendering the charts a PR touches found at one side. */
export type Side = Required<SetParseResult> & { notFollowed: Unfollowed[] };

/** One way the chart is installed: with its own values.yaml, or with another values file over it. */
export interface Variant {
  chart: string;
  values: string;
  /** The changed file this render answers for. */
  changed: string;
  templateChanged: boolean;
}

/** What a chart's template renders with besides values (chart-files.ts). */
export type ChartFiles = Pick<ChartTemplate, 'helpers' | 'chart' | 'release'>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Renders one template with the values of one install and reads what it declares into `out`. */
export function readRender(
  out: Side,
  v: Variant,
  own: boolean,
  template: string,
  text: string,
  values: unknown,
  refs: readonly string[],
  parsers: readonly CapacityParser[],
  files: ChartFiles,
): void {
  const reason = v.templateChanged ? 'helm-template' : 'helm-values';
  const rendered = values === undefined ? null : renderChartTemplate({ ...files, text, values, path: template });
  if (rendered === null || !rendered.ok) {
    // Same template, same values it reads: whatever it renders did not change.
    const fingerprint = JSON.stringify([text, refs.map((r) => valueAt(values, r))]);
    const why = rendered === null ? `${v.values} is not valid YAML` : failureText(rendered.error);
    out.notFollowed.push({ file: v.changed, line: null, reason, subject: template, needs: template, inputs: [why], fingerprint });
    return;
  }
  const output = rendered.value;
  // A named template left unrendered may write any field, a GPU limit among them: what it
  // renders is unknown, unless what the template reads is the same at both sides.
  const left = output.text.split('\n').findIndex((l) => INDIRECT_RE.test(l));
  if (left >= 0) {
    const fingerprint = JSON.stringify([text, refs.map((r) => valueAt(values, r))]);
    const why = `${(output.text.split('\n')[left] ?? '').trim()} at line ${output.lineOf(left + 1)} is not rendered`;
    out.notFollowed.push({ file: v.changed, line: null, reason, subject: template, needs: template, inputs: [why], fingerprint });
  }
  const found = detectFile(template, output.text, parsers);
  // The chart's own values render the objects of the template; another values file, its own copies.
  const place = <T extends { file: string; line: number }>(x: T): T =>
    own ? { ...x, line: output.lineOf(x.line) } : { ...x, file: v.values, line: 1 };
  out.decls.push(
    ...found.decls.map((d): CapacityDecl => ({
      ...place(d),
      parts: d.parts.map((p) => (own ? { ...p, line: output.lineOf(p.line) } : { ...p, line: 1 })),
    })),
  );
  out.unresolved.push(...(found.unresolved ?? []).map((u): UnresolvedDecl => place(u)));
  out.diagnostics.push(
    ...found.diagnostics.map((d) =>
      own ? { ...d, line: d.line === null ? null : output.lineOf(d.line) } : { ...d, file: v.values, line: null },
    ),
  );
  if (own) out.supersedes.push(template);
  // What a reader of the rendered objects could not follow (a ComputeClass that creates GPU pools,
  // say) stays not followed, on the changed file, with the reader's own fingerprint.
  for (const n of found.notFollowed ?? []) out.notFollowed.push({ ...n, file: v.changed, line: null });
  for (const u of found.unresolved ?? []) {
    if (u.unboundedBy !== undefined) {
      // A pool the values leave with no GPU limit: the comparison sees it on the template, which
      // this change may not touch, so the changed file names it unless the other side has it too.
      if (own && v.changed !== template) {
        out.notFollowed.push({
          file: v.changed,
          line: null,
          reason: 'count-unknown',
          subject: u.name,
          needs: `the values render ${template} with no ${u.unboundedBy} limit on it, so the pool can grow without bound: set one in the values`,
          fingerprint: JSON.stringify(['unbounded', u.kind, u.name, u.unboundedBy]),
        });
      }
      continue;
    }
    out.notFollowed.push({
      file: v.changed,
      line: null,
      reason,
      subject: template,
      needs: template,
      inputs: [`the GPU count of ${u.name}`],
      // The expression left in the GPU field reads values the render did not substitute.
      fingerprint: JSON.stringify([output.text, refs.map((r) => valueAt(values, r))]),
    });
  }
}

// A named template (`include`, `template`) or `tpl` may read any value, from another file of the chart.
const INDIRECT_RE = /\{\{-?\s*(?:[^}]*[\s(|])?(?:include|template|tpl)\s/;

// `.Values` taken whole (`index .Values "gpu-pool" "a"`, `toYaml .Values`, `$v := .Values`): no path tells what it reads.
const WHOLE_VALUES_RE = /\$?\.Values(?![.\w])/;

/**
 * The values a template reads, as paths (`queue.gpus`); `''` stands for all of them where it
 * reads through a named template or `tpl`, or takes `.Values` whole, so a change to any value is
 * a change to what it renders.
 */
export function valuesRead(text: string): string[] {
  const refs = [...text.matchAll(VALUES_REF_RE)].map((m) => (m[1] ?? '').slice(1));
  return INDIRECT_RE.test(text) || WHOLE_VALUES_RE.test(text) ? [...refs, ''] : refs;
}

function valueAt(values: unknown, path: string): unknown {
  if (path === '') return values;
  let at = values;
  for (const step of path.split('.')) at = isObject(at) ? at[step] : undefined;
  return at ?? null;
}

/** Why a template did not render, naming the function that refused unless the message does. */
function failureText(f: RenderFailure): string {
  return `${f.fn === null || f.why.includes(`"${f.fn}"`) ? '' : `${f.fn}: `}${f.why} at line ${f.line}`;
}
