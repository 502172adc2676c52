import { describe, expect, it } from 'vitest';
import { detectPr } from './real-fixtures.js';
import { QUEUE_CHART } from './queue-chart.js';

/**
 * A values file laid over a chart's defaults (a second values file of the chart, a file an Argo CD
 * Application or a Flux HelmRelease names) that is no valid YAML: Helm refuses it, so the render
 * is not followed and the queue it rendered is unknown at head, never rendered with the chart's
 * defaults as if the file were not there (`6 → 4`, a decrease no install would make).
 */

const OWN = 'https://github.com/acme/platform.git';
const VALUES = 'envs/prod/queues-values.yaml';
const APP = 'clusters/prod/apps/queues.yaml';

const INSTALLS: Record<string, Record<string, string>> = {
  'a second values file of the chart': {},
  'argo multi-source $ref': {
    [APP]: `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: queues-prod
spec:
  sources:
    - repoURL: ${OWN}
      path: charts/queues
      helm:
        valueFiles: [$values/${VALUES}]
    - repoURL: ${OWN}
      ref: values
`,
  },
  'flux valuesFiles': {
    [APP]: `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: queues
spec:
  chart:
    spec:
      chart: ./charts/queues
      sourceRef: {kind: GitRepository, name: flux-system}
      valuesFiles:
        - ./${VALUES}
`,
  },
};

/** Ways a values file stops being YAML Helm reads, each over a base that sizes the queue at 6. */
const BROKEN = [
  'queue:\n  gpus: [10\n',
  'queue: {gpus: 10\n',
  'queue:\n  gpus: 10\n   name: x\n',
  'queue:\n\tgpus: 10\n',
  `a: &a [*a]\nqueue:\n  gpus: 10\n`,
];

describe('a values layer that is no valid YAML', () => {
  for (const [shape, install] of Object.entries(INSTALLS)) {
    const path = shape === 'a second values file of the chart' ? 'charts/queues/values-prod.yaml' : VALUES;
    for (const broken of BROKEN) {
      it(`${shape}, ${JSON.stringify(broken)}: the queue unknown, never the chart's defaults`, async () => {
        const tree = { ...QUEUE_CHART, ...install };
        const result = await detectPr({ ...tree, [path]: 'queue:\n  gpus: 6\n' }, { ...tree, [path]: broken });
        expect(result.changes.filter((c) => c.gpusBefore === 6)).toEqual([]);
        expect(result.coverage.find((c) => c.file === path)?.state).toBe('not-followed');
        expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toContainEqual(
          expect.stringMatching(/^research: the GPU count after this change could not be read \(it was 6 GPUs/),
        );
      });
    }
  }
});
