import { repositoryName } from '../../domain/index.js';
import type { CoverageIo } from '../side-readers.js';
import { yamlValue } from '../kit/kube-yaml.js';
import { CAPACITY_KIND_RE } from './helm-chart.js';
import { present } from './appset-generators.js';
import type { GitopsInstall } from './gitops-installs.js';
import { setPath, setValue } from './gitops-installs.js';
import { accountSignals } from '../kit/signal-scan/account.js';
import { kubeStringify } from '../kit/kube-yaml.js';
import type { CapacityParser } from '../parser.js';
import { chartFiles, templateFiles } from './chart-files.js';
import { subchartTemplates } from './subcharts.js';
import { overlayRead } from './values-layers.js';
import type { SubchartTemplate } from './subcharts.js';
import { readRender, valuesRead } from './read-render.js';
import { readValuesFrom, unreadInputs } from './values-from.js';
import type { Side, Variant } from './read-render.js';

/*
 * One chart install (an Argo CD Application, a Flux HelmRelease, a kustomize `helmCharts` entry,
 * a helmfile release) rendered at each side with the values it gives, its objects read on the
 * file the review answers for; what it is given that the review cannot read named there.
 */

export interface ChartRenders {
  base: Side;
  head: Side;
  /** Changed files the renders followed: the values and templates of the charts rendered. */
  followed: string[];
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

export function yamlOf(text: string | null): unknown {
  if (text === null) return {};
  return yamlValue(text);
}

export async function isChart(dir: string, io: CoverageIo): Promise<boolean> {
  return (await io.list(dir)).includes(join(dir, 'Chart.yaml'));
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
export async function localChart(chart: GitopsInstall['chart'], io: InstallIo): Promise<string | null> {
  if (!('local' in chart) || !(await isChart(chart.local, io))) return null;
  const own = io.repositories ?? [];
  if (own.length === 0 || chart.repo === null) return chart.local;
  return own.includes(chart.repo) ? chart.local : null;
}

/** A values file an Argo CD source takes from another source's root (`$<ref>/…`) that is another repository. */
export function foreignFile(install: GitopsInstall, file: string, io: InstallIo): boolean {
  const url = install.from?.[file];
  const own = io.repositories ?? [];
  if (url === undefined || own.length === 0) return false;
  const repo = repositoryName(url);
  return repo === null || !own.includes(repo);
}

/**
 * One install at each side (absent where it is not there), rendered or named not followed on
 * `at`: the changed Application, or a changed values file it names. True when it was followed
 * (its chart renders capacity from values, or what it is given had to be named).
 */
export async function renderInstall(
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
    // Flux lays `valuesFrom` over the chart's values files and `spec.values` over them.
    const from = await readValuesFrom(install, reader, io, (p, value) => setPath(p, setValue(value)));
    const given = [
      ...files.filter((f) => f.text !== null || !install.optionalFiles).map((f) => yamlOf(f.text)),
      ...from.layers,
      ...install.inline,
    ];
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
    const missing = [...install.unread, ...from.unread, ...absent];
    if (missing.length > 0) {
      result[side].notFollowed.push({
        file: at,
        line: null,
        reason: 'gitops-install',
        subject: key,
        needs: local,
        inputs: missing,
        // The templates too: what they render from the unread values changes with them.
        fingerprint: JSON.stringify([
          local,
          missing,
          given,
          templates.map((t) => t.text),
          ...(await unreadInputs(install, at, reader, io)),
        ]),
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

export function emptySide(): Side {
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
