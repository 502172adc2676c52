import type { CoverageIo } from '../side-readers.js';
import { CAPACITY_KIND_RE, isHelmValuesPath } from './helm-chart.js';
import { isHelmfilePath } from './helmfile-installs.js';
import { installsOf } from './installs-of.js';
import type { GitopsInstall } from './gitops-installs.js';
import { installsInTree } from './installs-in-tree.js';
import { withChangedPaths } from './changed-listing.js';
import { fileFormat } from '../kit/yaml-segments.js';
import type { CapacityParser } from '../parser.js';
import { chartFiles, templateFiles } from './chart-files.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { names, sizingKeys } from './install-values.js';
import { asSubchart, renderSubcharts } from './subcharts.js';
import { overlayRead } from './values-layers.js';
import { isObject, readRender, valuesRead } from './read-render.js';
import { chartInstallFinder } from './chart-installs.js';
import type { ChartInstall } from './chart-installs.js';
import type { Variant } from './read-render.js';
import { emptySide, foreignFile, isChart, localChart, renderInstall, yamlOf } from './install-render.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { changedKeys } from '../kit/changed-keys.js';
import type { ChartRenders, InstallIo } from './install-render.js';
import { unrenderedGpuTemplate } from './unrendered-gpu-templates.js';
import { renderChartTemplate } from './gotmpl/render.js';

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

async function variantsOf(changed: readonly string[], io: CoverageIo): Promise<Variant[]> {
  const out: Variant[] = [];
  for (const path of changed) {
    const chart = await templateChart(path, io);
    if (chart !== null) {
      out.push({ chart, values: join(chart, 'values.yaml'), changed: path, templateChanged: true });
    } else if (isHelmValuesPath(path) && (await isChart(dirOf(path), io))) {
      out.push({ chart: dirOf(path), values: path, changed: path, templateChanged: false });
    }
  }
  return out;
}

/** The chart a file under its `templates/` (in a subfolder too) belongs to: the nearest folder with a Chart.yaml above a `templates`. */
async function templateChart(path: string, io: CoverageIo): Promise<string | null> {
  const steps = path.split('/');
  for (let i = steps.length - 2; i >= 0; i--) {
    if (steps[i] !== 'templates') continue;
    const chart = steps.slice(0, i).join('/');
    if (await isChart(chart, io)) return chart;
  }
  return null;
}

/**
 * Charts of the PR rendered at both sides as Helm renders them (gotmpl/render.ts):
 * a changed values file is followed into the GPU fields of its chart's templates, and a changed
 * template is read with the chart's values. A template that does not render, or whose GPU count
 * stays an expression, is not followed, unless it renders the same at both sides.
 */
export async function renderCharts(
  changed: readonly string[],
  given: InstallIo,
  parsers: readonly CapacityParser[],
): Promise<ChartRenders> {
  const io = withChangedPaths(given, changed);
  const result: ChartRenders = { base: emptySide(), head: emptySide(), followed: [] };
  for (const path of changed) if (fileFormat(path) === 'yaml' || isHelmfilePath(path)) await renderInstalls(path, io, parsers, result);
  // Values files read as the installs that name them install the chart, rather than alone over its defaults.
  const byInstalls = new Set(await followValues(changed, io, parsers, result));
  const finder = chartInstallFinder(
    changed,
    io,
    (chart) => localChart(chart, io),
    (dir) => isChart(dir, io),
  );
  // A changed ConfigMap or Secret a release takes its values from is read as that release installs its chart.
  for (const path of changed) {
    if (fileFormat(path) !== 'yaml' || result.followed.includes(path)) continue;
    const releases = await finder.readingData(path);
    let followed = releases.some((r) => r.renderedElsewhere);
    for (const { install } of releases.filter((r) => !r.renderedElsewhere))
      if (await renderInstall({ base: install, head: install }, path, io, parsers, result)) followed = true;
    if (followed) result.followed.push(path);
  }
  for (const v of await variantsOf(changed, io)) {
    if (!v.templateChanged && byInstalls.has(v.changed)) continue;
    const templates = (await templateFiles(v.chart, io)).filter((p) => /\.(ya?ml|tpl)$/i.test(p) && !p.endsWith('.tpl'));
    const own = v.values === join(v.chart, 'values.yaml');
    // A chart the tree installs is applied with each install's values, never with its defaults alone.
    // A template that reads no values renders the same for every install: its own reading stands.
    // A search of the tree cut short may have missed an install: its values, not the defaults, would be applied.
    let searchCutOff = false;
    if (own && (!v.templateChanged || (await readsValues(v.changed, io)))) {
      const installed = await finder.ofChart(v.chart);
      searchCutOff = installed.cutOff;
      if (installed.installs.length > 0) {
        await renderThroughInstalls(v, installed.installs, io, parsers, result);
        if (searchCutOff && result.followed.includes(v.changed)) result.head.notFollowed.push(installsCutOff(v.changed));
        continue;
      }
    }
    let followedAny = false;
    // The changed template itself rendered with the defaults (not only other templates of its chart).
    let changedRendered = false;
    // What the defaults render of the changed template, per side (null where it does not render).
    const changedOutput: { base: string | null; head: string | null } = { base: null, head: null };
    // What the capacity templates read of the values (a helper they include may read any of them).
    const capacityRefs: string[] = [];
    const parentValues: { base: unknown; head: unknown } = { base: {}, head: {} };
    for (const side of ['base', 'head'] as const) {
      const reader = io[side];
      const defaults = yamlOf(await reader.read(join(v.chart, 'values.yaml')));
      const layered = own ? defaults : overlayRead(defaults, yamlOf(await reader.read(v.values)));
      // Values that cannot be read stay unread under a parent chart's too (read-render.ts names them).
      const values = layered === undefined ? undefined : await asSubchart(v.chart, layered, reader, io);
      parentValues[side] = values;
      const files = await chartFiles(v.chart, reader, io);
      for (const template of templates) {
        const text = await reader.read(template);
        // Capacity objects only: a workload asking for GPUs is no capacity, whatever its values.
        if (text === null || !(CAPACITY_KIND_RE.test(text) || parsers.some((p) => p.mightContain(template, text)))) continue;
        const refs = valuesRead(text);
        if (refs.length === 0) continue;
        followedAny = true;
        if (template === v.changed) {
          changedRendered = true;
          const out = values === undefined ? null : renderChartTemplate({ ...files, text, values, path: template });
          changedOutput[side] = out?.ok === true ? out.value.text : null;
        }
        capacityRefs.push(...refs, ...(/\b(include|template)\s+"/.test(text) ? [''] : []));
        readRender(result[side], v, own, template, text, values, refs, parsers, files);
      }
    }
    // The chart's values are its subcharts' too, under their keys.
    if (!v.templateChanged && (await renderSubcharts(v, parentValues, changed, io, parsers, result))) followedAny = true;
    if (followedAny) result.followed.push(v.changed);
    // A changed template no install renders, whose GPUs the defaults leave out, is not followed.
    if (changedRendered) {
      const texts = { base: await io.base.read(v.changed), head: await io.head.read(v.changed) };
      const hidden = await unrenderedGpuTemplate(v, texts, changedOutput, result, io);
      if (hidden !== null) result.head.notFollowed.push(hidden);
    }
    // Rendered with the defaults alone only because no install was found in the part of the tree searched.
    if (followedAny && searchCutOff && (v.templateChanged || (await readsChangedValues(v.changed, capacityRefs, io))))
      result.head.notFollowed.push(installsCutOff(v.changed));
  }
  return result;
}

/** Whether a values file changes a key the capacity templates read (or one above or below it). */
async function readsChangedValues(path: string, refs: readonly string[], io: InstallIo): Promise<boolean> {
  const keys = changedKeys(yamlOf(await io.base.read(path)), yamlOf(await io.head.read(path)));
  const under = (a: string, b: string) => b === '' || a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
  return keys.some((k) => refs.some((r) => under(k, r) || under(r, k)));
}

/** A chart's change read where the search for its installs stopped before the end of the tree. */
function installsCutOff(path: string): ChartRenders['head']['notFollowed'][number] {
  return {
    file: path,
    line: null,
    reason: 'gitops-install',
    subject: path,
    needs: 'every Application, HelmRelease or helmfile release that installs the chart',
    inputs: ['the tree was searched for installs only in part (too many folders or YAML files)'],
  };
}

async function readsValues(template: string, io: InstallIo): Promise<boolean> {
  for (const reader of [io.base, io.head]) {
    const text = await reader.read(template);
    if (text !== null && valuesRead(text).length > 0) return true;
  }
  return false;
}

/**
 * A changed template, or the changed values.yaml, of a chart the tree installs: read as each
 * install renders it, on the changed file, where another follower does not already (an install
 * whose own file changes, or that names a changed values file). Installs written apart each make
 * their own copy of the objects under the same names: more than one is named, not counted as one.
 */
async function renderThroughInstalls(
  v: Variant,
  installs: readonly ChartInstall[],
  io: InstallIo,
  parsers: readonly CapacityParser[],
  result: ChartRenders,
): Promise<void> {
  // The template's own reading (its expressions as written) is no object of the cluster.
  if (v.templateChanged) for (const side of ['base', 'head'] as const) result[side].supersedes.push(v.changed);
  let followed = false;
  for (const { install } of installs.filter((i) => !i.renderedElsewhere)) {
    if (await renderInstall({ base: install, head: install }, v.changed, io, parsers, result)) followed = true;
  }
  const copies = installs.filter((i) => i.install.copy !== undefined).length;
  if (installs.length > 1 && copies < installs.length) {
    result.head.notFollowed.push({
      file: v.changed,
      line: null,
      reason: 'gitops-install',
      subject: v.changed,
      needs: 'one count per install',
      inputs: installs.map((i) => `${i.install.key} in ${i.file}`).sort(),
    });
  }
  if (followed || installs.some((i) => i.renderedElsewhere)) result.followed.push(v.changed);
}

/**
 * An Argo CD Application or Flux HelmRelease the PR changes, installing a chart with values: a
 * chart in this repository is rendered with them at each side, its objects reported on the
 * changed file; a chart elsewhere, or values the review cannot read (a Secret), is not followed
 * there when what it is given names GPUs (or the chart here renders capacity from values).
 */
async function renderInstalls(path: string, io: InstallIo, parsers: readonly CapacityParser[], result: ChartRenders): Promise<void> {
  const of = async (side: 'base' | 'head') => {
    const reader = io[side];
    const gen = {
      read: (p: string) => reader.read(p),
      list: (d: string) => io.list(d),
      ...(io.dirs ? { dirs: io.dirs } : {}),
      ...(io.repositories ? { repositories: io.repositories } : {}),
    };
    return installsOf(path, (await reader.read(path)) ?? '', gen);
  };
  const at = { base: await of('base'), head: await of('head') };
  const keys = [...new Set([...at.base, ...at.head].map((i) => i.key))];
  let followed = false;
  for (const key of keys) {
    const sides = { base: at.base.find((i) => i.key === key), head: at.head.find((i) => i.key === key) };
    if (await renderInstall(sides, path, io, parsers, result)) followed = true;
  }
  if (followed) result.followed.push(path);
}

/** Plain values: a YAML mapping that is no Kubernetes object. */
function isValuesMap(text: string | null): boolean {
  if (text === null) return false;
  const value = yamlValue(text);
  return isObject(value) && !(typeof value.apiVersion === 'string' && typeof value.kind === 'string');
}

/**
 * Values files the PR changes away from any chart (no Chart.yaml beside them, no Application in
 * the diff naming them), followed to every Application, ApplicationSet and HelmRelease of the tree
 * that names them, and read as those install their charts, reported on the values file. A values
 * file the search did not get to the end of the tree for, that nothing found names, is not
 * followed when it changes what could size capacity (a sizing key, a number, a GPU name).
 */
async function followValues(
  changed: readonly string[],
  io: InstallIo,
  parsers: readonly CapacityParser[],
  result: ChartRenders,
): Promise<string[]> {
  const candidates: string[] = [];
  const followed: string[] = [];
  for (const path of changed) {
    // Not a chart's templates, nor a tool's own folder (`.github/workflows`): no install reads those.
    if (fileFormat(path) !== 'yaml' || /(^|\/)(templates\/|\.)/.test(path) || result.followed.includes(path)) continue;
    // Beside a chart, its own values.yaml is every install's; another values file there is
    // rendered over it (variantsOf) unless an install names it.
    const besideChart = await isChart(dirOf(path), io);
    if (besideChart && (path === join(dirOf(path), 'values.yaml') || !isHelmValuesPath(path))) continue;
    const texts = { base: await io.base.read(path), head: await io.head.read(path) };
    if (isValuesMap(texts.base) || isValuesMap(texts.head)) candidates.push(path);
  }
  if (candidates.length === 0) return followed;
  const tree = await installsInTree(new Set(changed), io);
  // An Application only the base makes (a Git generator's folder the PR removes) is found walking the base.
  if ((await Promise.all(candidates.map((p) => io.head.read(p)))).includes(null)) {
    const atBase = await installsInTree(new Set(changed), { ...io, head: io.base });
    const key = (i: { file: string; install: GitopsInstall }) => JSON.stringify([i.file, i.install.key, i.install.copy ?? null]);
    const known = new Set(tree.installs.map(key));
    tree.installs.push(...atBase.installs.filter((i) => !known.has(key(i))));
  }
  // Installs of changed files renderInstalls followed: each was rendered at each side with the
  // values files it names as that side has them, so a changed file it names is read there already.
  // Left to the renders of its chart instead, a values file beside the chart that the install
  // overrides (by `valuesObject`, `parameters`, a later file) would be counted over its defaults alone.
  const changedInstalls = await installsOfChanged(
    changed.filter((p) => result.followed.includes(p)),
    io,
  );
  // An install that names two changed values files renders once: both are in that one render.
  const rendered = new Set<string>();
  for (const path of candidates) {
    // The same install at both sides of its changed file is one install.
    const inChanged = [
      ...new Map(
        changedInstalls
          .filter(({ install }) => names(install, path) && !foreignFile(install, path, io))
          .map((i) => [JSON.stringify([i.file, i.install.key, i.install.copy ?? null]), i] as const),
      ).values(),
    ];
    const naming = tree.installs
      .filter(({ install }) => names(install, path) && !foreignFile(install, path, io))
      // A templated path that could be this file reads as this file: what it gives then differs between the sides.
      .map(({ file, install }) => ({
        file,
        install: { ...install, valueFiles: install.valueFiles.map((f) => (names({ ...install, valueFiles: [f] }, path) ? path : f)) },
      }));
    const rendering = inChanged.map(({ file, install }) => `${install.key} in ${file}`);
    let copies = inChanged.filter(({ install }) => install.copy !== undefined).length;
    for (const { file, install } of naming) {
      const once = JSON.stringify([file, install.key, install.copy ?? null, install.valueFiles]);
      if (!rendered.has(once)) {
        if (!(await renderInstall({ base: install, head: install }, path, io, parsers, result))) continue;
        rendered.add(once);
      }
      rendering.push(`${install.key} in ${file}`);
      if (install.copy !== undefined) copies++;
    }
    // Each install makes its own copy of the objects (one per cluster, say), under the same names:
    // an ApplicationSet's are counted apart under their Applications' names; those of installs
    // written apart are named here rather than counted as one.
    if (rendering.length > 1 && copies < rendering.length) {
      result.head.notFollowed.push({
        file: path,
        line: null,
        reason: 'gitops-install',
        subject: path,
        needs: 'one count per install',
        inputs: rendering.sort(),
      });
    }
    if (naming.length > 0 || inChanged.length > 0) {
      result.followed.push(path);
      followed.push(path);
      continue;
    }
    if (!tree.truncated || !isHelmValuesPath(path) || (await isChart(dirOf(path), io))) continue;
    const texts = [await io.base.read(path), await io.head.read(path)];
    const [before, after] = texts.map(yamlOf);
    const keys = sizingKeys(before, after);
    // Where it names GPUs, the check of values with no chart (input-files.ts) names those keys already.
    const named = texts.some((t) => t !== null && namesGpu(t)) && keys.some((k) => sizesCapacity(k));
    if (keys.length === 0 || named) continue;
    result.head.notFollowed.push({
      file: path,
      line: null,
      reason: 'helm-values',
      subject: path,
      needs: 'the Application or HelmRelease that installs a chart with it',
      inputs: [`the tree was searched for them only in part; changed: ${keys.slice(0, 5).join(', ')}`],
    });
  }
  return followed;
}

/** The installs the files declare at either side (a changed Application, HelmRelease, helmfile). */
async function installsOfChanged(paths: readonly string[], io: InstallIo): Promise<{ file: string; install: GitopsInstall }[]> {
  const out: { file: string; install: GitopsInstall }[] = [];
  for (const path of paths)
    for (const side of ['base', 'head'] as const) {
      const reader = io[side];
      const text = await reader.read(path);
      if (text === null) continue;
      const gen = {
        read: (p: string) => reader.read(p),
        list: (d: string) => io.list(d),
        ...(io.dirs ? { dirs: io.dirs } : {}),
        ...(io.repositories ? { repositories: io.repositories } : {}),
      };
      for (const install of await installsOf(path, text, gen)) out.push({ file: path, install });
    }
  return out;
}
