import { appSetInstalls } from './appset.js';
import type { GeneratorIo } from './appset-generators.js';
import { gitopsInstalls, gitopsObjects, str } from './gitops-installs.js';
import type { GitopsInstall } from './gitops-installs.js';
import { helmfileInstalls } from './helmfile-installs.js';
import { kustomizeChartInstalls } from './kustomize-charts.js';

/**
 * Every chart install a file declares, however it declares it: Argo CD Applications and the
 * Applications its ApplicationSets make, Flux HelmReleases, helmfile releases, kustomize `helmCharts`.
 */
export async function installsOf(path: string, text: string, io: GeneratorIo): Promise<GitopsInstall[]> {
  // A release's `valuesFrom` are looked up beside the file that declares it.
  const out = [
    ...gitopsInstalls(text).map((i) => (i.valuesFrom ? { ...i, valuesFrom: { ...i.valuesFrom, file: path } } : i)),
    ...helmfileInstalls(path, text),
    ...kustomizeChartInstalls(path, text),
  ];
  for (const obj of gitopsObjects(text)) {
    if ((str(obj.apiVersion) ?? '').startsWith('argoproj.io/') && obj.kind === 'ApplicationSet')
      out.push(...(await appSetInstalls(obj, io)));
  }
  return out;
}
