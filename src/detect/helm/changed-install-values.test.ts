import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';
import { QUEUE_CHART } from '../../../test/detect/queue-chart.js';

/**
 * A pull request that changes an install (an Argo CD Application, a Flux HelmRelease) and a values
 * file it names together, where the install's own values override the file's: the install's
 * render at each side reads the file as that side has it, so the count is the install's; the file
 * read alone over the chart's defaults would report the overridden number as a second change.
 */
const OWN = 'https://github.com/acme/platform.git';
type Place = { file: string; fromChart: string };
const PLACES: Place[] = [
  { file: 'charts/queues/values-prod.yaml', fromChart: 'values-prod.yaml' },
  { file: 'envs/prod/queues.yaml', fromChart: '../../envs/prod/queues.yaml' },
];

/** Each install shape, given the values file's path from the chart and from the root, and the GPUs it sets over the file. */
const INSTALLS: Record<string, (fromChart: string, fromRoot: string, gpus: number) => string> = {
  'argo valuesObject over valueFiles': (fromChart, _r, gpus) =>
    `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: queues\nspec:\n  source:\n    repoURL: ${OWN}\n    path: charts/queues\n    helm:\n      valueFiles: [${fromChart}]\n      valuesObject:\n        queue: {gpus: ${gpus}}\n`,
  'argo parameters over valueFiles': (fromChart, _r, gpus) =>
    `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: queues\nspec:\n  source:\n    repoURL: ${OWN}\n    path: charts/queues\n    helm:\n      valueFiles: [${fromChart}]\n      parameters:\n        - name: queue.gpus\n          value: "${gpus}"\n`,
  'flux values over valuesFiles': (_c, fromRoot, gpus) =>
    `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: queues\nspec:\n  chart:\n    spec:\n      chart: ./charts/queues\n      sourceRef: {kind: GitRepository, name: flux-system}\n      valuesFiles: [./${fromRoot}]\n  values:\n    queue: {gpus: ${gpus}}\n`,
};

const tree = (place: Place, install: string, own: number, file: number): Tree => ({
  ...QUEUE_CHART,
  [place.file]: `queue:\n  gpus: ${file}\n`,
  'deploy/queues.yaml': (INSTALLS[install] ?? (() => ''))(place.fromChart, place.file, own),
});

describe('a changed install and a changed values file it overrides', () => {
  for (const place of PLACES)
    for (const install of Object.keys(INSTALLS))
      it(`${install}, the file at ${place.file}: one change, the install's`, async () => {
        const r = await detectPr(tree(place, install, 8, 3), tree(place, install, 16, 7));
        expect(changeRows(r).map((row) => row.slice(0, 4).concat(row[5] ?? null))).toEqual([
          ['kueue-cluster-queue', 'research', 8, 16, 'deploy/queues.yaml'],
        ]);
        expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
      });
});
