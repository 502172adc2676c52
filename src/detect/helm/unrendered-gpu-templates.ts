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
 * template whose output can name GPUs under some values that the render with the defaults leaves
 * out is not followed, naming the template and its line; one the defaults render (a GPU pool
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

/** The first line of the template naming a GPU as written (no template action) that its render leaves out. */
function hiddenLine(text: string | null, output: string | null): { line: number; text: string } | null {
  if (text === null || output === null) return null;
  const rendered = new Set(output.split('\n').map((l) => l.trim()));
  const lines = text.split('\n');
  const i = lines.findIndex((l) => !l.includes('{{') && namesGpu(l) && !rendered.has(l.trim()));
  return i < 0 ? null : { line: i + 1, text: (lines[i] ?? '').trim() };
}

/**
 * The note on a changed template no install renders when its output can name GPUs that the
 * render with the chart's defaults leaves out at either side: a line naming a GPU as written that
 * the render drops, or, for a template naming none and rendering none, a values file of the chart
 * other than its defaults that names one. Null when it has none.
 */
export async function unrenderedGpuTemplate(
  v: Variant,
  texts: { base: string | null; head: string | null },
  outputs: { base: string | null; head: string | null },
  rendered: { base: Side; head: Side },
  io: CoverageIo,
): Promise<Unfollowed | null> {
  if (!v.templateChanged) return null;
  const template = v.changed;
  // Named by the render with the defaults as not followed already.
  if ([rendered.base, rendered.head].some((side) => side.notFollowed.some((n) => n.subject === template))) return null;
  const own = hiddenLine(texts.head, outputs.head) ?? hiddenLine(texts.base, outputs.base);
  let by: string | null = own?.text ?? null;
  const namesNone = [texts.head, texts.base, outputs.head, outputs.base].every((t) => t === null || !namesGpu(t));
  if (by === null && namesNone) {
    const defaults = v.chart === '' ? 'values.yaml' : `${v.chart}/values.yaml`;
    for (const path of (await chartValuesFiles(v.chart, io)).filter((p) => p !== defaults)) {
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
    line: own?.line ?? firstAction(texts.head ?? texts.base ?? ''),
    reason: 'helm-template',
    subject: template,
    // The chart whose install would render it (report/ writes the sentence).
    needs: v.chart === '' ? 'the chart at the root' : v.chart,
    inputs: [by],
  };
}
