import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';

/**
 * A Helm chart repository's `index.yaml` kept beside the charts it publishes: releasing a chart
 * whose name or description names GPUs (`karpenter-gpu-nodepool`, "p5.48xlarge pools") adds an
 * entry and installs nothing. Each release is generated (which charts, how many versions, how the
 * GPU is spelt) and must end "no change" with the index read; an index that also carries a key of
 * its own, a `kind`, or an entry that is no chart version is judged as any other file.
 */

const CHART = { 'charts/gpu/Chart.yaml': 'apiVersion: v2\nname: gpu\nversion: 0.1.0\n' };

const arbChart = fc.record({
  name: fc.constantFrom('karpenter-gpu-nodepool', 'nvidia-gpu-operator', 'gpu-queues', 'stack'),
  spelt: fc.constantFrom('nvidia.com/gpu limits', 'p5.48xlarge and g6e pools', 'A100 MIG slices', 'GPU nodes'),
  versions: fc.integer({ min: 1, max: 4 }),
});

const entry = (name: string, spelt: string, version: number) => `  - apiVersion: v2
    name: ${name}
    description: Karpenter NodePool for ${spelt}
    type: application
    version: 0.${version}.0
    appVersion: "1.0"
    created: "2026-04-0${version}T10:00:00Z"
    digest: ${String(version).repeat(8)}
    urls:
      - https://example.org/charts/${name}-0.${version}.0.tgz
`;

const index = (charts: readonly { name: string; spelt: string; versions: number }[], extra = '') => {
  const byName = new Map(charts.map((c) => [c.name, c]));
  const entries = [...byName.values()]
    .map((c) => `  ${c.name}:\n${Array.from({ length: c.versions }, (_, i) => entry(c.name, c.spelt, i + 1)).join('')}`)
    .join('');
  return `apiVersion: v1\nentries:\n${entries}generated: "2026-04-03T10:00:00Z"\n${extra}`;
};

describe("a Helm chart repository's index", () => {
  it('a release adds entries naming GPUs: no change, and the index is read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbChart, { minLength: 1, maxLength: 3 }), arbChart, async (before, added) => {
        const r = await detectChanges(
          listingPr({ ...CHART, 'index.yaml': index(before) }, { ...CHART, 'index.yaml': index([...before, added]) }),
        );
        expect(r.changes).toEqual([]);
        expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });

  it('a lookalike with a key of its own, a kind, or an entry that is no chart version is not followed', async () => {
    const chart = [{ name: 'karpenter-gpu-nodepool', spelt: 'GPU nodes', versions: 1 }];
    const lookalikes: ((n: number) => string)[] = [
      (n) => index(chart, `limits:\n  nvidia.com/gpu: ${n}\n`),
      (n) => `kind: NodePool\n${index(chart)}`.replace('GPU nodes', `${n} GPU nodes`),
      (n) => index(chart).replace('entries:\n', `entries:\n  gpu-pool:\n    - limits: {nvidia.com/gpu: ${n}}\n`),
    ];
    for (const write of lookalikes) {
      const r = await detectChanges(listingPr({ ...CHART, 'index.yaml': write(4) }, { ...CHART, 'index.yaml': write(8) }));
      expect(r.coverage.find((c) => c.file === 'index.yaml')?.state).toBe('not-followed');
    }
  });
});
