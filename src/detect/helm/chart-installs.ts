import type { CoverageIo } from '../side-readers.js';
import { fileFormat } from '../kit/yaml-segments.js';
import type { GitopsInstall } from './gitops-installs.js';
import { isHelmfilePath } from './helmfile-installs.js';
import { installsInTree } from './installs-in-tree.js';
import { installsOf } from './installs-of.js';
import { names } from './install-values.js';
import { dataObjectsOf, nearDirs } from './values-from.js';

/*
 * Who installs a chart of the tree. A chart an Argo CD Application, Flux HelmRelease, kustomize
 * `helmCharts` entry or helmfile release installs is applied with that install's values over its
 * defaults, never with its defaults alone: a changed template (or a changed values.yaml of the
 * chart) is read as each install renders it. Rendered with the defaults alone, a template whose
 * numbers the install sets (a MachineDeployment's replicas 0 in values.yaml, 3 in the
 * Application) counts nothing whatever GPU it names, and the floor takes its GPU names as read.
 */

/** What the search needs: the coverage's reads, the tree's folders and the repository's names. */
export interface ChartInstallIo extends CoverageIo {
  dirs?: (dir: string) => Promise<string[]>;
  repositories?: readonly string[];
}

export interface ChartInstall {
  /** The file that declares the install. */
  file: string;
  install: GitopsInstall;
  /**
   * Rendered by another follower already: the install's own file changes (renderInstalls reads
   * it at each side), or it names a changed values file (followValues reads it there).
   */
  renderedElsewhere: boolean;
}

interface ChartInstalls {
  installs: ChartInstall[];
  /** The search of the tree stopped before its end: an install not reached may install the chart. */
  truncated: boolean;
  /** It stopped at its bound of folders or YAML files, in a tree that can be walked. */
  cutOff: boolean;
}

/** The chart at `chart` and the charts that hold it under their `charts/` folder, which Helm renders it in. */
async function chartAndParents(chart: string, isChart: (dir: string) => Promise<boolean>): Promise<string[]> {
  const out = [chart];
  const steps = chart.split('/');
  for (let i = steps.length - 2; i >= 1; i--) {
    if (steps[i] !== 'charts') continue;
    const parent = steps.slice(0, i).join('/');
    if (await isChart(parent)) out.push(parent);
  }
  return out;
}

/**
 * The installs of the tree, searched once per review: those of unchanged files from the tree at
 * head, and those the changed files declare at either side.
 */
export function chartInstallFinder(
  changed: readonly string[],
  io: ChartInstallIo,
  localChart: (chart: GitopsInstall['chart']) => Promise<string | null>,
  isChart: (dir: string) => Promise<boolean>,
): InstallFinder {
  let all: Promise<{ found: { file: string; install: GitopsInstall; changed: boolean }[]; truncated: boolean; cutOff: boolean }> | null =
    null;
  const search = async () => {
    const tree = await installsInTree(new Set(changed), io);
    const found = tree.installs.map((i) => ({ ...i, changed: false }));
    const gen = {
      list: (d: string) => io.list(d),
      ...(io.dirs ? { dirs: io.dirs } : {}),
      ...(io.repositories ? { repositories: io.repositories } : {}),
    };
    for (const path of changed) {
      if (fileFormat(path) !== 'yaml' && !isHelmfilePath(path)) continue;
      for (const side of ['base', 'head'] as const) {
        const reader = io[side];
        const text = await reader.read(path);
        if (text === null) continue;
        for (const install of await installsOf(path, text, { ...gen, read: (p) => reader.read(p) }))
          found.push({ file: path, install, changed: true });
      }
    }
    return { found, truncated: tree.truncated, cutOff: tree.cutOff };
  };
  const ofChart = async (chart: string): Promise<ChartInstalls> => {
    all ??= search();
    const { found, truncated, cutOff } = await all;
    const charts = await chartAndParents(chart, isChart);
    const installs: ChartInstall[] = [];
    for (const f of found) {
      const local = await localChart(f.install.chart);
      if (local === null || !charts.includes(local)) continue;
      // The same install at both sides of a changed file is one install.
      const key = JSON.stringify([f.file, f.install.key, f.install.copy ?? null]);
      if (installs.some((i) => JSON.stringify([i.file, i.install.key, i.install.copy ?? null]) === key)) continue;
      // followValues leaves a chart's own values.yaml to the renders of its chart.
      const namesChanged = changed.some((p) => p !== f.file && p !== `${local}/values.yaml` && names(f.install, p));
      installs.push({ file: f.file, install: f.install, renderedElsewhere: f.changed || namesChanged });
    }
    return { installs, truncated, cutOff };
  };
  const readingData = async (path: string): Promise<ChartInstall[]> => {
    const objects = [...(await dataObjects(io.base, path)), ...(await dataObjects(io.head, path))];
    if (objects.length === 0) return [];
    all ??= search();
    const out: ChartInstall[] = [];
    for (const f of (await all).found) {
      const from = f.install.valuesFrom;
      if (from?.file === undefined || !nearDirs(from.file).includes(dirOf(path))) continue;
      const reads = from.refs.some((r) =>
        objects.some((o) => o.kind === r.kind && o.name === r.name && (o.namespace === from.namespace || o.namespace === null)),
      );
      if (!reads || out.some((i) => i.file === f.file && i.install.key === f.install.key)) continue;
      out.push({ file: f.file, install: f.install, renderedElsewhere: f.changed });
    }
    return out;
  };
  return { ofChart, readingData };
}

/** Who installs a chart, and which installs take their values from the ConfigMaps and Secrets of a file. */
export interface InstallFinder {
  ofChart(chart: string): Promise<ChartInstalls>;
  /** The releases whose `valuesFrom` read an object of the file (looked up where values-from.ts looks). */
  readingData(path: string): Promise<ChartInstall[]>;
}

const dirOf = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

/** The ConfigMaps and Secrets of a file at one side, by kind, name and namespace. */
async function dataObjects(reader: CoverageIo['head'], path: string) {
  const text = await reader.read(path);
  if (text === null || !/\b(ConfigMap|Secret)\b/.test(text)) return [];
  return dataObjectsOf(text).map((o) => ({ kind: o.kind, name: o.name, namespace: o.namespace }));
}
