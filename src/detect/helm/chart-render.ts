import { repositoryName } from '../../domain/index.js';
import type { CoverageIo } from '../side-readers.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { CAPACITY_KIND_RE, isHelmValuesPath } from './helm-chart.js';
import { isHelmfilePath } from './helmfile-installs.js';
import { installsOf } from './installs-of.js';
import { present } from './appset-generators.js';
import type { GitopsInstall } from './gitops-installs.js';
import { installsInTree } from './installs-in-tree.js';
import { withChangedPaths } from './changed-listing.js';
import { accountSignals } from '../kit/signal-scan/account.js';
import { kubeStringify } from '../kit/kube-yaml.js';
import { fileFormat } from '../kit/yaml-segments.js';
import type { CapacityParser } from '../parser.js';
import { chartFiles, templateFiles } from './chart-files.js';
import { namesGpu, sizesCapacity } from '../kit/gpu-signal.js';
import { names, sizingKeys } from './install-values.js';
import { asSubchart, renderSubcharts, subchartTemplates } from './subcharts.js';
import type { SubchartTemplate } from './subcharts.js';
import { isObject, readRender, valuesRead } from './read-render.js';
import { unreadInputs } from './values-from.js';
import { overlayRead } from './values-layers.js';
import type { Side, Variant } from './read-render.js';

export interface ChartRenders {
  base: Side;
  head: Side;
  /** Changed files the renders followed: the values and templates of the charts rendered. */
  followed: string[];
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

function yamlOf(text: string | null): unknown {
  if (text === null) return {};
  return yamlValue(text);
}

async function isChart(dir: string, io: CoverageIo): Promise<boolean> {
  return (await io.list(dir)).includes(join(dir, 'Chart.yaml'));
}

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
  for (const v of await variantsOf(changed, io)) {
    if (!v.templateChanged && byInstalls.has(v.changed)) continue;
    const templates = (await templateFiles(v.chart, io)).filter((p) => /\.(ya?ml|tpl)$/i.test(p) && !p.endsWith('.tpl'));
    const own = v.values === join(v.chart, 'values.yaml');
    let followedAny = false;
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
        readRender(result[side], v, own, template, text, values, refs, parsers, files);
      }
    }
    // The chart's values are its subcharts' too, under their keys.
    if (!v.templateChanged && (await renderSubcharts(v, parentValues, changed, io, parsers, result))) followedAny = true;
    if (followedAny) result.followed.push(v.changed);
  }
  return result;
}

/** The chart's capacity templates that read values: what a render of it could count. */
async function capacityTemplates(
  chart: string,
  reader: CoverageIo['head'],
  io: InstallIo,
  parsers: readonly CapacityParser[],
  release?: { name: string; namespace: string },
) {
  const out: (Omit<SubchartTemplate, 'files' | 'values'> & Partial<SubchartTemplate>)[] = [];
  for (const template of (await templateFiles(chart, io)).filter((p) => /\.ya?ml$/i.test(p))) {
    const text = await reader.read(template);
    if (text === null || !(CAPACITY_KIND_RE.test(text) || parsers.some((p) => p.mightContain(template, text)))) continue;
    const refs = valuesRead(text);
    if (refs.length > 0) out.push({ template, text, refs });
  }
  // Its subcharts' too, which render with its values under their keys.
  return [...out, ...(await subchartTemplates(chart, reader, io, parsers, [], release))];
}

/** What following GitOps installs needs beyond the coverage's reads: the tree's folders, the repository's names. */
export interface InstallIo extends CoverageIo {
  dirs?: (dir: string) => Promise<string[]>;
  /** `host/owner/name` of this repository, where known: a Git source naming another is not read from the tree. */
  repositories?: readonly string[];
}

/**
 * The chart folder of an install when it is a chart of this repository: a Git source naming this
 * repository (or, where the repository's names are not known, or for a Flux `GitRepository`
 * defined elsewhere, any Git source whose path holds a chart here). Null for a chart elsewhere.
 */
async function localChart(chart: GitopsInstall['chart'], io: InstallIo): Promise<string | null> {
  if (!('local' in chart) || !(await isChart(chart.local, io))) return null;
  const own = io.repositories ?? [];
  if (own.length === 0 || chart.repo === null) return chart.local;
  return own.includes(chart.repo) ? chart.local : null;
}

/** A values file an Argo CD source takes from another source's root (`$<ref>/…`) that is another repository. */
function foreignFile(install: GitopsInstall, file: string, io: InstallIo): boolean {
  const url = install.from?.[file];
  const own = io.repositories ?? [];
  if (url === undefined || own.length === 0) return false;
  const repo = repositoryName(url);
  return repo === null || !own.includes(repo);
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

/**
 * One install at each side (absent where it is not there), rendered or named not followed on
 * `at`: the changed Application, or a changed values file it names. True when it was followed
 * (its chart renders capacity from values, or what it is given had to be named).
 */
async function renderInstall(
  sides: { base: GitopsInstall | undefined; head: GitopsInstall | undefined },
  at: string,
  io: InstallIo,
  parsers: readonly CapacityParser[],
  result: ChartRenders,
): Promise<boolean> {
  const chart = (sides.head ?? sides.base)?.chart;
  if (chart === undefined) return false;
  const local = await localChart(chart, io);
  let followed = false;
  for (const side of ['base', 'head'] as const) {
    const install = sides[side];
    if (install === undefined || !(await elementsThere(install, io[side], io))) continue;
    const key = install.key;
    const reader = io[side];
    const files = await Promise.all(
      install.valueFiles.map(async (f) =>
        foreignFile(install, f, io) ? { f, text: null, foreign: true } : { f, text: await reader.read(f), foreign: false },
      ),
    );
    const given = [...files.filter((f) => f.text !== null || !install.optionalFiles).map((f) => yamlOf(f.text)), ...install.inline];
    const templates = local === null ? [] : await capacityTemplates(local, reader, io, parsers, install.release);
    if (local === null || install.templated) {
      // What a chart not in view, or the Applications an ApplicationSet generates, make of the
      // values cannot be read: named when the values name GPUs or the chart here renders capacity.
      if (templates.length === 0 && accountSignals('values.yaml', kubeStringify(given)).signals.length === 0) continue;
      const needs = 'remote' in chart ? chart.remote : local === null ? `${chart.url} ${chart.local}` : local;
      const why =
        install.templated ??
        ('local' in chart && !(await isChart(chart.local, io))
          ? `no chart at ${chart.local} in this repository`
          : 'the chart is not in this repository');
      result[side].notFollowed.push({
        file: at,
        line: null,
        reason: 'gitops-install',
        subject: key,
        needs,
        inputs: [why],
        fingerprint: JSON.stringify([needs, given, ...(await unreadInputs(install, at, reader, io))]),
      });
      followed = true;
      continue;
    }
    if (templates.length === 0) continue;
    followed = true;
    const absent = files
      .filter((f) => f.foreign || (f.text === null && !install.optionalFiles))
      .map((f) => `valueFiles ${f.f} (${f.foreign ? `from ${install.from?.[f.f] ?? '?'}, not this repository` : 'not in the repository'})`);
    const missing = [...install.unread, ...absent];
    if (missing.length > 0) {
      result[side].notFollowed.push({
        file: at,
        line: null,
        reason: 'gitops-install',
        subject: key,
        needs: local,
        inputs: missing,
        fingerprint: JSON.stringify([local, missing, given, ...(await unreadInputs(install, at, reader, io))]),
      });
    }
    let values = yamlOf(await reader.read(join(local, 'values.yaml')));
    for (const layer of given) values = overlayRead(values, layer);
    const v: Variant = { chart: local, values: at, changed: at, templateChanged: false };
    const context = await chartFiles(local, reader, io, install.release);
    const into = install.copy === undefined ? result[side] : emptySide();
    for (const t of templates) {
      const given = t.values ? t.values(values) : values;
      if (given !== null) readRender(into, v, false, t.template, t.text, given, t.refs, parsers, t.files ?? context);
    }
    if (install.copy !== undefined) addCopy(result[side], into, install.copy);
  }
  return followed;
}

/** An Application a Git generator made from folders or files that this side of the change does not have is not there. */
async function elementsThere(install: GitopsInstall, reader: CoverageIo['head'], io: CoverageIo): Promise<boolean> {
  for (const e of install.element ?? []) {
    const there =
      (await reader.read(e)) !== null ||
      ((await io.list(e)).length > 0 && (await present(e, { read: (p) => reader.read(p), list: (d) => io.list(d) })));
    if (!there) return false;
  }
  return true;
}

function emptySide(): Side {
  return { decls: [], diagnostics: [], unresolved: [], notFollowed: [], supersedes: [], replaces: [] };
}

/**
 * The objects one of an ApplicationSet's Applications renders: each Application makes its own copy
 * (in its own cluster or namespace), counted apart under the Application's name.
 */
function addCopy(out: Side, copy: Side, label: string): void {
  const named = <T extends { name: string }>(x: T): T => ({ ...x, name: `${x.name} [${label}]` });
  out.decls.push(...copy.decls.map(named));
  out.unresolved.push(...copy.unresolved.map(named));
  out.diagnostics.push(...copy.diagnostics);
  out.notFollowed.push(...copy.notFollowed);
  out.replaces.push(...copy.replaces);
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
  // An install that names two changed values files renders once: both are in that one render.
  const rendered = new Set<string>();
  for (const path of candidates) {
    const naming = tree.installs
      .filter(({ install }) => names(install, path) && !foreignFile(install, path, io))
      // A templated path that could be this file reads as this file: what it gives then differs between the sides.
      .map(({ file, install }) => ({
        file,
        install: { ...install, valueFiles: install.valueFiles.map((f) => (names({ ...install, valueFiles: [f] }, path) ? path : f)) },
      }));
    const rendering: string[] = [];
    let copies = 0;
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
    if (naming.length > 0) {
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
