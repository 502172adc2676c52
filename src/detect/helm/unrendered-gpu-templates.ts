import type { Unfollowed } from '../parser.js';
import type { CoverageIo } from '../side-readers.js';
import { namesGpu } from '../kit/gpu-signal.js';
import { isHelmValuesPath } from './helm-chart.js';
import type { Side, Variant } from './read-render.js';

/**
 * A changed template of a chart no install in the tree renders is read with the chart's defaults
 * alone (chart-render.ts). What the defaults leave out, a branch they do not enable
 * (`{{ if .Values.gpu.enabled }}`, `{{ if eq .Values.cloudprovider "amazonec2" }}`) or a range
 * over a list they leave empty, renders nothing here, yet an install of the chart outside the
 * tree (a cluster's Fleet or Argo CD, `helm install -f values-aws.yaml`) may enable it. So a changed
 * template whose output can name GPUs under some values, and whose render with the defaults counts
 * nothing, is not followed, naming the template and its line; one the defaults render (a GPU pool
 * enabled by default) is counted as before.
 *
 * "Can name GPUs": the template's text names a GPU (a literal machine type, `nvidia.com/gpu`, a
 * `gpu` key), or it reads values and a values file of the chart (`values*.yaml`, `ci/*.yaml`)
 * names one, which a range or a `{{ .instanceType }}` may take.
 */

/** Values files a chart ships beside its `values.yaml`: examples of installs, and its CI's. */
async function chartValuesFiles(chart: string, io: CoverageIo): Promise<string[]> {
  const here = (await io.list(chart)).filter((p) => isHelmValuesPath(p) || /(^|\/)values[^/]*\.ya?ml$/i.test(p));
  const ci = (await io.list(chart === '' ? 'ci' : `${chart}/ci`)).filter((p) => /\.ya?ml$/i.test(p));
  return [...here, ...ci];
}

/** The first line of the text naming a GPU (1-based) with its text, or null. */
function gpuLine(text: string): { line: number; text: string } | null {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => namesGpu(l));
  return i < 0 ? null : { line: i + 1, text: (lines[i] ?? '').trim() };
}

/** Its first template action: where a note points when the GPUs are named by a values file. */
function firstAction(text: string): number {
  const i = text.split('\n').findIndex((l) => /\{\{-?\s*(?:if|range|with)\b/.test(l));
  return i < 0 ? 1 : i + 1;
}

/**
 * The note on a changed template no install renders when its output can name GPUs that the
 * render with the chart's defaults did not count at either side; null when it has none.
 */
export async function unrenderedGpuTemplate(
  v: Variant,
  texts: { base: string | null; head: string | null },
  rendered: { base: Side; head: Side },
  io: CoverageIo,
  readsValues: boolean,
): Promise<Unfollowed | null> {
  if (!v.templateChanged) return null;
  const template = v.changed;
  // Counted by the render with the defaults, or named by it as not followed already.
  const atTemplate = (side: Side) =>
    side.decls.some((d) => d.file === template) ||
    side.unresolved.some((d) => d.file === template) ||
    side.notFollowed.some((n) => n.subject === template);
  if (atTemplate(rendered.base) || atTemplate(rendered.head)) return null;
  const own = [texts.head, texts.base].find((t): t is string => t !== null && namesGpu(t));
  const named = own === undefined ? null : gpuLine(own);
  let by: string | null = own === undefined ? null : (named?.text ?? 'a GPU name across its lines');
  if (by === null && readsValues) {
    for (const path of await chartValuesFiles(v.chart, io)) {
      const found = [await io.head.read(path), await io.base.read(path)]
        .map((t) => (t === null ? null : gpuLine(t)))
        .find((g) => g !== null);
      if (found) {
        by = `${path}:${String(found.line)}: ${found.text}`;
        break;
      }
    }
  }
  if (by === null) return null;
  return {
    file: template,
    line: named?.line ?? firstAction(texts.head ?? texts.base ?? ''),
    reason: 'helm-template',
    subject: template,
    // The chart whose install would render it (report/ writes the sentence).
    needs: v.chart === '' ? 'the chart at the root' : v.chart,
    inputs: [by],
  };
}
