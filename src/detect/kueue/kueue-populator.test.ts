import { describe, expect, it } from 'vitest';
import { kueuePopulatorParser } from './kueue-populator.js';
import { changeRows, detectPr, edited, lineIn, loadReal } from '../../../test/detect/real-fixtures.js';
import type { Edit } from '../../../test/detect/real-fixtures.js';

/** Kueue's populator chart values (fixtures/real/SOURCES.md): the queue is described by values alone. */
const file = 'helm/kueue-populator-values.yaml';

async function pr(edits: Edit[], base = loadReal(file)) {
  const head = edited(base, edits);
  return { text: head[file] ?? '', result: await detectPr(base, head) };
}

describe('Kueue populator chart values', () => {
  it('reads the real values: one queue, nvidia.com/gpu "100" on the chart\'s flavor, cpu and memory ignored', () => {
    const text = loadReal(file)[file] ?? '';
    const { decls, diagnostics } = kueuePopulatorParser.parse(file, text);
    expect(diagnostics).toEqual([]);
    expect(decls).toEqual([
      {
        file,
        line: lineIn(text, 'nominalQuota: "100"'),
        kind: 'kueue-cluster-queue',
        name: 'cluster-queue',
        gpuModel: null,
        gpus: 100,
        parts: [{ label: 'tas-gpu-default', resource: 'nvidia.com/gpu', gpus: 100, line: lineIn(text, 'nominalQuota: "100"') }],
      },
    ]);
  });

  it('a values-only PR raising the GPU quota is a change at its line', async () => {
    const { text, result } = await pr([[file, 'nominalQuota: "100"', 'nominalQuota: "128"']]);
    expect(changeRows(result)).toEqual([
      ['kueue-cluster-queue', 'cluster-queue', 100, 128, null, file, lineIn(text, 'nominalQuota: "128"')],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it("the flavor's node labels give the model; an unrelated edit is no change", async () => {
    const labelled = edited(loadReal(file), [
      [file, 'nodeLabels: {}', 'nodeLabels:\n        cloud.google.com/gke-accelerator: nvidia-h100-80gb'],
    ]);
    const { result } = await pr([[file, 'nominalQuota: "100"', 'nominalQuota: "64"']], labelled);
    expect(changeRows(result).map((r) => r.slice(2, 5))).toEqual([[100, 64, 'H100']]);
    expect((await pr([[file, 'tag: main', 'tag: v0.14.0']])).result).toMatchObject({ changes: [], diagnostics: [] });
  });

  it('a quota that is not a number is a warning, and the change is not invented but unknown: an error', async () => {
    const { text, result } = await pr([[file, 'nominalQuota: "100"', 'nominalQuota: "lots"']]);
    expect(result.changes).toEqual([]);
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([
      expect.stringMatching(/^cluster-queue: the GPU count after this change could not be read \(it was 100 GPUs/),
    ]);
    expect(result.diagnostics.filter((d) => d.severity !== 'error')).toEqual([
      {
        file,
        line: lineIn(text, 'nominalQuota: "lots"'),
        severity: 'warning',
        message:
          'kueue-populator ClusterQueue cluster-queue, nvidia.com/gpu: nominalQuota "lots" is not a number; the GPU quota is unknown',
      },
    ]);
  });

  it('the same values passed by an Argo CD Application', async () => {
    const values = (loadReal(file)[file] ?? '')
      .split('\n')
      .map((l) => (l === '' ? l : `        ${l}`))
      .join('\n');
    const app = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: kueue-populator\nspec:\n  source:\n    chart: kueue-populator\n    helm:\n      valuesObject:\n${values}`;
    const path = 'apps/kueue-populator.yaml';
    const head = edited({ [path]: app }, [[path, 'nominalQuota: "100"', 'nominalQuota: "200"']]);
    const result = await detectPr({ [path]: app }, head);
    expect(changeRows(result)).toEqual([
      ['kueue-cluster-queue', 'cluster-queue', 100, 200, null, path, lineIn(head[path], 'nominalQuota: "200"')],
    ]);
  });

  it("the chart's own template, which names the values as .Values.kueuePopulator, is not read as values", () => {
    const template =
      '{{- if .Values.kueuePopulator.config.clusterQueue }}\nname: {{ .Values.kueuePopulator.config.clusterQueue.name }}\n{{- end }}\n';
    expect(kueuePopulatorParser.mightContain('templates/setup-hook.yaml', template)).toBe(false);
  });
});
