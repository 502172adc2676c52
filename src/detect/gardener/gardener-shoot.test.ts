import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { gardenerShootParser } from './gardener-shoot.js';

/** The shape of Gardener's example Shoot (example/90-shoot.yaml), one worker pool per entry. */
const shoot = (o: { provider?: string; type?: string; min?: number | string; max?: number | string; extra?: string } = {}) =>
  `apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata:
  name: ml
  namespace: garden-dev
spec:
  cloudProfile:
    name: ${o.provider ?? 'aws'}
  provider:
    type: ${o.provider ?? 'aws'}
    workers:
    - name: cpu-worker
      minimum: 3
      maximum: 5
      machine:
        type: m5.large
    - name: gpu-worker
      minimum: ${o.min ?? 0}
      maximum: ${o.max ?? 2}
      machine:
        type: ${o.type ?? 'p3.8xlarge'}
      zones:
      - eu-west-1a
      - eu-west-1b
${o.extra ?? ''}`;
const FILE = 'landscape/shoots/ml.yaml';
const rows = (text: string) =>
  gardenerShootParser.parse(FILE, text).decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel, d.gpuStep, d.line]);

describe('Gardener Shoot workers', () => {
  it('count maximum machines of the pool × the GPUs of its machine type, CPU pools not at all', () => {
    expect(rows(shoot())).toEqual([['gardener-worker', 'ml/gpu-worker', 8, 'V100', 4, 19]]);
    expect(rows(shoot({ type: 'g2-standard-24', provider: 'gcp', max: 3 }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 6, 'L4', 2, 19],
    ]);
    expect(rows(shoot({ type: 'Standard_NC24ads_A100_v4', provider: 'azure' }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 2, 'A100', 1, 19],
    ]);
    expect(rows(shoot({ type: 'm5.xlarge' }))).toEqual([]);
  });

  it('count the accelerators a GCP worker attaches through providerConfig.gpu', () => {
    const gpu = (count: number | string) => `      providerConfig:
        apiVersion: gcp.provider.extensions.gardener.cloud/v1alpha1
        kind: WorkerConfig
        gpu:
          acceleratorType: nvidia-tesla-t4
          count: ${count}
`;
    expect(rows(shoot({ provider: 'gcp', type: 'n1-standard-8', max: 4, extra: gpu(2) }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 8, 'T4', 2, 19],
    ]);
    // a2 types repeat their built-in GPUs there: never fewer than the type has.
    expect(rows(shoot({ provider: 'gcp', type: 'a2-highgpu-2g', max: 1, extra: gpu(1) }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 2, 'T4', 2, 19],
    ]);
    expect(rows(shoot({ provider: 'gcp', type: 'n1-standard-8', extra: gpu(0) }))).toEqual([]);
    const templated = gardenerShootParser.parse(FILE, shoot({ provider: 'gcp', type: 'n1-standard-8', extra: gpu('${gpus}') }));
    expect(templated.unresolved).toEqual([expect.objectContaining({ kind: 'gardener-worker', name: 'ml/gpu-worker' })]);
  });

  it('takes a machine type of a provider the catalog does not list for unknown once the worker names a GPU', () => {
    const openstack = (type: string, extra = '') => gardenerShootParser.parse(FILE, shoot({ provider: 'openstack', type, extra }));
    expect(openstack('g1.xlarge.gpu').unresolved).toEqual([expect.objectContaining({ name: 'ml/gpu-worker' })]);
    expect(openstack('ecs.gn7i-c8g1.2xlarge').unresolved).toHaveLength(1);
    const labelled = openstack('SCS-16V-64', '      labels:\n        nvidia.com/gpu.present: "true"\n');
    expect(labelled.unresolved).toHaveLength(1);
    expect(labelled.diagnostics[0]?.message).toContain('machine type SCS-16V-64 of provider openstack');
    // A comment that names GPUs is no GPU (the worker's name is: a pool called gpu-worker is one).
    const comment = '    # scaleDownGpuUtilizationThreshold: 0.5\n';
    const commented = gardenerShootParser.parse(
      FILE,
      shoot({ provider: 'openstack', type: 'SCS-16V-64', extra: comment }).replace('gpu-worker', 'batch'),
    );
    expect(commented.unresolved).toEqual([]);
    expect(commented.decls).toEqual([]);
  });

  it('is unknown without a readable maximum, never 0', () => {
    for (const max of ['${max}', '"4"', '2.5']) {
      const r = gardenerShootParser.parse(FILE, shoot({ max }));
      expect(r.decls).toEqual([]);
      expect(r.unresolved).toEqual([expect.objectContaining({ kind: 'gardener-worker', name: 'ml/gpu-worker' })]);
      expect(r.diagnostics.map((d) => d.severity)).toEqual(['warning']);
    }
  });

  it('reports a raised maximum and a machine type turned GPU as changes of the pool', async () => {
    const base = { [FILE]: shoot() };
    expect(changeRows(await detectPr(base, { [FILE]: shoot({ max: 6 }) }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 8, 24, 'V100', FILE, 19],
    ]);
    expect(changeRows(await detectPr(base, { [FILE]: shoot({ type: 'p4d.24xlarge' }) }))).toEqual([
      ['gardener-worker', 'ml/gpu-worker', 8, 16, 'A100', FILE, 19],
    ]);
    expect(changeRows(await detectPr(base, { [FILE]: shoot().replace('maximum: 5', 'maximum: 9') }))).toEqual([]);
  });

  it("reads a Kyma Runtime's workers and additionalWorkers as those of the Shoot it names", () => {
    const runtime = `apiVersion: infrastructuremanager.kyma-project.io/v1
kind: Runtime
metadata:
  name: runtime-id
spec:
  shoot:
    name: ml
    provider:
      type: aws
      workers:
      - name: cpu
        machine:
          type: m6i.large
        minimum: 3
        maximum: 20
      additionalWorkers:
      - name: gpu
        machine:
          type: g6.12xlarge
        minimum: 0
        maximum: 3
`;
    expect(gardenerShootParser.parse(FILE, runtime).decls.map((d) => [d.kind, d.name, d.gpus, d.gpuModel])).toEqual([
      ['gardener-worker', 'ml/gpu', 12, 'L4'],
    ]);
  });
});
