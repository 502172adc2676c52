import { changedKeys, valueAt } from '../kit/changed-keys.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { yamlValue } from '../kit/kube-yaml.js';
import type { CapacityParser } from '../parser.js';
import type { CoverageIo } from '../side-readers.js';
import { chartFiles, templateFiles } from './chart-files.js';
import { CAPACITY_KIND_RE } from './helm-chart.js';
import { isObject, readRender, valuesRead } from './read-render.js';
import type { ChartFiles, Side, Variant } from './read-render.js';

/*
 * Subcharts: Helm renders each chart under a chart's `charts/` (and each dependency its Chart.yaml
 * names) with the subchart's own values.yaml under the parent's values at the subchart's key (its
 * alias, or its name), the parent's `global:` over the subchart's. A parent's values file is
 * therefore read through its subcharts' templates, and a subchart's template with its parent's
 * values; a dependency not in the tree (a repository, a packaged `.tgz`) whose values a change
 * sizes is not followed.
 */

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** Helm's merge of a values file over the chart's defaults: maps merge, anything else replaces. */
export function overlay(base: unknown, top: unknown): unknown {
  if (!isObject(base) || !isObject(top)) return top === undefined ? base : top;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(top)) out[k] = overlay(base[k], v);
  return out;
}

interface Dependency {
  /** The subchart's folder in the tree, or null when it is not there. */
  dir: string | null;
  /** The key of the parent's values it reads: its alias, or its name. */
  key: string;
  condition: string[];
  tags: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

async function isChart(dir: string, io: CoverageIo): Promise<boolean> {
  return (await io.list(dir)).includes(join(dir, 'Chart.yaml'));
}

/** What reading subcharts needs: the coverage's reads, and the folders of a folder where the tree lists them. */
export type SubchartIo = CoverageIo & { dirs?: (dir: string) => Promise<string[]> };

/**
 * A chart's subcharts: its Chart.yaml's (or requirements.yaml's) dependencies, found under
 * `charts/` or at a `file://` path, and (where folders are listed) every other chart under
 * `charts/`, which Helm renders whether named or not.
 */
async function dependencies(chart: string, reader: CoverageIo['head'], io: SubchartIo): Promise<Dependency[]> {
  const out: Dependency[] = [];
  for (const file of ['Chart.yaml', 'requirements.yaml']) {
    const meta = yamlValue((await reader.read(join(chart, file))) ?? '');
    const deps = isObject(meta) && Array.isArray(meta.dependencies) ? meta.dependencies : [];
    for (const d of deps) {
      if (!isObject(d) || typeof d.name !== 'string') continue;
      const repo = typeof d.repository === 'string' ? d.repository : '';
      const places = [join(chart, `charts/${d.name}`)];
      if (repo.startsWith('file://')) places.push(normal(join(chart, repo.slice('file://'.length))));
      let dir: string | null = null;
      for (const p of places) if (dir === null && (await isChart(p, io))) dir = p;
      const condition = typeof d.condition === 'string' ? d.condition.split(',').map((c) => c.trim()) : [];
      out.push({ dir, key: typeof d.alias === 'string' ? d.alias : d.name, condition, tags: strings(d.tags) });
    }
  }
  for (const dir of (await io.dirs?.(join(chart, 'charts'))) ?? []) {
    if (out.some((d) => d.dir === dir) || !(await isChart(dir, io))) continue;
    const meta = yamlValue((await reader.read(join(dir, 'Chart.yaml'))) ?? '');
    out.push({
      dir,
      key: isObject(meta) && typeof meta.name === 'string' ? meta.name : dir.slice(dir.lastIndexOf('/') + 1),
      condition: [],
      tags: [],
    });
  }
  return out;
}

function normal(path: string): string {
  const parts: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Whether Helm renders the dependency with these parent values: its first condition that is a boolean, else its tags. */
function enabled(dep: Dependency, values: unknown): boolean {
  for (const c of dep.condition) {
    const v = valueAt(values, c);
    if (typeof v === 'boolean') return v;
  }
  const tags = isObject(values) && isObject(values.tags) ? values.tags : {};
  const set = dep.tags.map((t) => tags[t]).filter((v) => typeof v === 'boolean');
  return set.length === 0 || set.includes(true);
}

/** A subchart's values: its defaults under the parent's values at its key, the parent's globals over its own. */
function subchartValues(defaults: unknown, parent: unknown, key: string): unknown {
  const own = overlay(defaults, isObject(parent) ? parent[key] : undefined);
  const global = isObject(parent) ? parent.global : undefined;
  if (!isObject(own) || global === undefined) return own;
  return { ...own, global: overlay(own.global, global) };
}

/**
 * The values a chart renders with when it is a subchart of a chart of the tree (`<parent>/charts/<name>`):
 * its own values under its parent's; `values` as they are otherwise.
 */
export async function asSubchart(chart: string, values: unknown, reader: CoverageIo['head'], io: SubchartIo): Promise<unknown> {
  const m = /^(.*?)\/?charts\/[^/]+$/.exec(chart);
  if (!m || !(await isChart(m[1] ?? '', io))) return values;
  const parent = m[1] ?? '';
  const dep = (await dependencies(parent, reader, io)).find((d) => d.dir === chart);
  const meta = yamlValue((await reader.read(join(chart, 'Chart.yaml'))) ?? '');
  const key = dep?.key ?? (isObject(meta) && typeof meta.name === 'string' ? meta.name : chart.slice(chart.lastIndexOf('/') + 1));
  return subchartValues(values, yamlValue((await reader.read(join(parent, 'values.yaml'))) ?? ''), key);
}

/** A capacity template of a subchart, and how it gets its values from its parent's (null: the subchart is off). */
export interface SubchartTemplate {
  template: string;
  text: string;
  refs: string[];
  files: ChartFiles;
  values: (parent: unknown) => unknown;
}

/**
 * The capacity templates that read values of the subcharts of `chart` in the tree at one side (but
 * `skip`, read as changed templates), each with its chart's context and values.
 */
export async function subchartTemplates(
  chart: string,
  reader: CoverageIo['head'],
  io: SubchartIo,
  parsers: readonly CapacityParser[],
  skip: readonly string[] = [],
  release?: { name: string; namespace: string },
): Promise<SubchartTemplate[]> {
  const out: SubchartTemplate[] = [];
  for (const dep of await dependencies(chart, reader, io)) {
    if (dep.dir === null) continue;
    const own = yamlValue((await reader.read(join(dep.dir, 'values.yaml'))) ?? '');
    const files = await chartFiles(dep.dir, reader, io, release);
    const values = (parent: unknown) => (enabled(dep, parent) ? subchartValues(own, parent, dep.key) : null);
    for (const template of (await templateFiles(dep.dir, io)).filter((p) => /\.ya?ml$/i.test(p))) {
      const text = skip.includes(template) ? null : await reader.read(template);
      if (text === null || !(CAPACITY_KIND_RE.test(text) || parsers.some((p) => p.mightContain(template, text)))) continue;
      const refs = valuesRead(text);
      if (refs.length > 0) out.push({ template, text, refs, files, values });
    }
  }
  return out;
}

/**
 * A changed values file of a chart read through the chart's subcharts at each side (`values`, the
 * parent's at that side): their capacity templates rendered with it (but those the change touches,
 * read as changed templates), a dependency not in the tree whose values it sizes not followed.
 * True when anything was read or named.
 */
export async function renderSubcharts(
  v: Variant,
  values: { base: unknown; head: unknown },
  changed: readonly string[],
  io: SubchartIo,
  parsers: readonly CapacityParser[],
  result: { base: Side; head: Side },
): Promise<boolean> {
  let followed = false;
  for (const dep of await dependencies(v.chart, io.head, io)) {
    if (dep.dir !== null || !sizes(values, dep.key)) continue;
    result.head.notFollowed.push({
      file: v.changed,
      line: null,
      reason: 'helm-values',
      subject: dep.key,
      needs: `the chart of the dependency ${dep.key}, not in this repository`,
      inputs: sizingKeys(values, dep.key).slice(0, 5),
    });
    followed = true;
  }
  for (const side of ['base', 'head'] as const) {
    for (const t of await subchartTemplates(v.chart, io[side], io, parsers, changed)) {
      followed = true;
      const merged = t.values(values[side]);
      if (merged !== null) readRender(result[side], v, false, t.template, t.text, merged, t.refs, parsers, t.files);
    }
  }
  return followed;
}

/** Changed leaves under the dependency's key (or the globals) that could size capacity: a sizing key, a number, a GPU name. */
function sizingKeys(values: { base: unknown; head: unknown }, key: string): string[] {
  const part = (v: unknown) => (isObject(v) ? { [key]: v[key], global: v.global } : {});
  const [before, after] = [part(values.base), part(values.head)];
  // The key's own name is the dependency's, not what is sized: a label under `gpu-operator` sizes nothing.
  return changedKeys(before, after).filter(
    (k) =>
      sizesCapacity(k.startsWith(`${key}.`) ? k.slice(key.length + 1) : k) ||
      [valueAt(before, k), valueAt(after, k)].some((x) => typeof x === 'number' || (typeof x === 'string' && namesGpu(x))),
  );
}

const sizes = (values: { base: unknown; head: unknown }, key: string) => sizingKeys(values, key).length > 0;
