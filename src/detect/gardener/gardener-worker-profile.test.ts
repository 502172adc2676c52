import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import { gardenerShootParser } from './gardener-shoot.js';

/** The extension Worker of gardener-extension-provider-gcp's example (example/30-worker.yaml), one pool. */
const worker = (o: { provider?: string; type?: string; max?: number; extra?: string } = {}) =>
  `apiVersion: extensions.gardener.cloud/v1alpha1
kind: Worker
metadata:
  name: worker
  namespace: shoot--foobar--ml
spec:
  type: ${o.provider ?? 'gcp'}
  region: europe-west1
  pools:
  - name: pool-a
    machineType: ${o.type ?? 'n1-standard-4'}
    minimum: 1
    maximum: ${o.max ?? 2}
${o.extra ?? ''}    zones:
    - europe-west1-b
`;

/** A CloudProfile of an OpenStack landscape, whose machine types only it says the GPUs of. */
const profile = (gpus: string, name = 'openstack') => `apiVersion: core.gardener.cloud/v1beta1
kind: CloudProfile
metadata:
  name: ${name}
spec:
  type: openstack
  machineTypes:
  - name: m1.large
    cpu: "4"
    gpu: "0"
    memory: 8Gi
  - name: g1.xlarge
    cpu: "16"
    gpu: "${gpus}"
    memory: 64Gi
`;

const shoot = (o: { type?: string; max?: number; ref?: string } = {}) => `apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata:
  name: ml
  namespace: garden-ml
spec:
${o.ref ?? '  cloudProfile:\n    name: openstack\n'}  provider:
    type: openstack
    workers:
    - name: train
      minimum: 0
      maximum: ${o.max ?? 3}
      machine:
        type: ${o.type ?? 'g1.xlarge'}
`;

const rows = (text: string) => gardenerShootParser.parse('w.yaml', text).decls.map((d) => [d.name, d.gpus, d.gpuStep]);
const unknown = (text: string) => (gardenerShootParser.parse('w.yaml', text).unresolved ?? []).map((u) => u.name);

describe('Gardener extension Workers', () => {
  it('count each pool as the Shoot worker it comes from: maximum × the machine type’s GPUs', () => {
    expect(rows(worker({ type: 'a2-highgpu-4g', max: 3 }))).toEqual([['shoot--foobar--ml/pool-a', 12, 4]]);
    expect(rows(worker({ provider: 'aws', type: 'p5.48xlarge', max: 1 }))).toEqual([['shoot--foobar--ml/pool-a', 8, 8]]);
    expect(rows(worker())).toEqual([]);
  });

  it('count the accelerators a GCP WorkerConfig attaches', () => {
    const extra = '    providerConfig:\n      gpu:\n        acceleratorType: nvidia-l4\n        count: 2\n';
    expect(rows(worker({ type: 'g2-standard-24', max: 2, extra }))).toEqual([['shoot--foobar--ml/pool-a', 4, 2]]);
  });

  it('leave a GPU-named type of a provider the catalog does not list unknown', () => {
    expect(unknown(worker({ provider: 'openstack', type: 'gpu.a100.4' }))).toEqual(['shoot--foobar--ml/pool-a']);
  });
});

describe('Gardener CloudProfiles', () => {
  it('give a Shoot the GPUs of the machine type its CloudProfile lists, in the same file', () => {
    expect(rows(`${profile('2')}---\n${shoot()}`)).toEqual([['ml/train', 6, 2]]);
    expect(rows(`${profile('2')}---\n${shoot({ type: 'm1.large', max: 9 })}`)).toEqual([]);
    // The older cloudProfileName names the profile too.
    expect(rows(`${profile('1')}---\n${shoot({ ref: '  cloudProfileName: openstack\n' })}`)).toEqual([['ml/train', 3, 1]]);
  });

  it('do not stand for a profile of another name, or a NamespacedCloudProfile', () => {
    expect(rows(`${profile('2', 'other')}---\n${shoot()}`)).toEqual([]);
    const namespaced = '  cloudProfile:\n    kind: NamespacedCloudProfile\n    name: openstack\n';
    expect(rows(`${profile('2')}---\n${shoot({ ref: namespaced })}`)).toEqual([]);
    // Without its profile, a type that names a GPU stays unknown.
    expect(unknown(`${profile('2', 'other')}---\n${shoot({ type: 'g1.xlarge.a100' })}`)).toEqual(['ml/train']);
  });

  it('are read from a file beside the changed Shoot, or in a folder beside its folder', async () => {
    const base = { 'garden/profiles/openstack.yaml': profile('4'), 'garden/shoots/ml.yaml': shoot({ type: 'm1.large' }) };
    const head = { ...base, 'garden/shoots/ml.yaml': shoot() };
    const r = await detectPr(base, head);
    expect(changeRows(r)).toEqual([['gardener-worker', 'ml/train', 0, 12, null, 'garden/shoots/ml.yaml', 14]]);
    expect(r.coverage.filter((f) => f.state === 'not-followed')).toEqual([]);
  });

  it('name a changed GPU count of a machine type, and hold nothing up where the counts stay', async () => {
    const base = { 'garden/profile.yaml': profile('1') };
    const recount = await detectPr(base, { 'garden/profile.yaml': profile('8') });
    expect(recount.coverage.map((f) => [f.state, f.notFollowed?.map((n) => [n.line, n.reason])])).toEqual([
      ['not-followed', [[14, 'gpu-reference']]],
    ]);
    const cpuOnly = await detectPr(base, { 'garden/profile.yaml': profile('1').replace('memory: 8Gi', 'memory: 16Gi') });
    expect(cpuOnly.coverage.map((f) => f.state)).toEqual(['read']);
  });
});
