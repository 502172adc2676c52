import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on Gardener beyond the Shoot: the extension `Worker`
 * (extensions.gardener.cloud) that a provider extension turns into machines, and the
 * `CloudProfile` whose machine types say how many GPUs a machine of each type has.
 */
const WORKER = 'provider-gcp-worker.yaml';
const WORKER_TARGET = `gardener/${WORKER}`;
const POOL = 'shoot--foobar--gcp/cpu-worker';
// The GCP WorkerConfig the example keeps commented out, its GPU block made live.
const T4_CONFIG = `    providerConfig:
      apiVersion: gcp.provider.extensions.gardener.cloud/v1alpha1
      kind: WorkerConfig
      gpu:
        acceleratorType: nvidia-tesla-t4
        count: 1
    zones:`;

const LANDSCAPE = 'gardener/example-landscape';
const PROFILE = 'example-landscape/30-cloudprofile.yaml';
const SHOOT = 'example-landscape/90-shoot.yaml';

export const GARDENER_WORKER_CASES: readonly RealCase[] = [
  // gardener/gardener-extension-provider-gcp example/30-worker.yaml
  {
    id: 'gardener GCP Worker: pool cpu-worker n1-standard-4 → a2-highgpu-2g',
    target: WORKER_TARGET,
    edits: [[WORKER, 'machineType: n1-standard-4', 'machineType: a2-highgpu-2g']],
    expect: [['gardener-worker', POOL, 0, 2]],
    why: 'maximum 1 machine × 2 A100 of a2-highgpu-2g',
  },
  {
    id: 'gardener GCP Worker: pool cpu-worker given providerConfig.gpu 1 × T4, maximum 1 → 3',
    target: WORKER_TARGET,
    edits: [
      [WORKER, /\n {4}zones:/, `\n${T4_CONFIG}`],
      [WORKER, 'maximum: 1', 'maximum: 3'],
    ],
    expect: [['gardener-worker', POOL, 0, 3]],
    why: '3 machines, each with the one T4 the WorkerConfig attaches',
  },
  {
    id: 'gardener GCP Worker: pool cpu-worker on a2-ultragpu-1g, minimum 1 → 2, maximum 1 → 4',
    target: WORKER_TARGET,
    edits: [
      [WORKER, 'machineType: n1-standard-4', 'machineType: a2-ultragpu-1g'],
      [WORKER, 'minimum: 1', 'minimum: 2'],
      [WORKER, 'maximum: 1', 'maximum: 4'],
    ],
    expect: [['gardener-worker', POOL, 0, 4]],
    why: 'maximum 4 machines × 1 A100 80GB of a2-ultragpu-1g',
  },
  {
    id: 'gardener GCP Worker: pool cpu-worker maximum 1 → 6 on n1-standard-4 (negative control)',
    target: WORKER_TARGET,
    edits: [[WORKER, 'maximum: 1', 'maximum: 6']],
    expect: [],
    why: 'a CPU machine type and no GPU in the WorkerConfig: more CPU machines only',
  },
  // gardener/gardener example/30-cloudprofile.yaml beside example/90-shoot.yaml
  {
    id: 'gardener example CloudProfile: m5.large memory 8Gi → 16Gi, a CPU type (negative control)',
    target: LANDSCAPE,
    edits: [[PROFILE, 'memory: 8Gi', 'memory: 16Gi']],
    expect: [],
    why: 'the profile lists one machine type, of gpu "0": no Shoot of it gains a GPU',
  },
  {
    id: 'gardener example CloudProfile: m5.large said to carry 1 GPU, the Shoot beside it unchanged',
    target: LANDSCAPE,
    edits: [[PROFILE, 'gpu: "0"', 'gpu: "1"']],
    expect: 'not-followed',
    why: 'every Shoot of cloudprofile1 that names m5.large grows by a GPU per machine; Shoots of a profile live anywhere',
  },
  {
    id: 'gardener example landscape: a GPU type added to the CloudProfile and the Shoot worker moved to it',
    target: LANDSCAPE,
    edits: [
      [
        PROFILE,
        '  machineTypes:\n',
        '  machineTypes:\n    - name: gpu-a100-2\n      cpu: "24"\n      gpu: "2"\n      memory: 170Gi\n      usable: true\n',
      ],
      [SHOOT, 'type: m5.large', 'type: gpu-a100-2'],
    ],
    expect: [['gardener-worker', 'crazy-botany/cpu-worker', 0, 10]],
    today: {
      outcome: 'not-followed',
      reason: 'the Shoot is counted (5 × 2), but a GPU type new to the profile is named too: Shoots elsewhere may take it',
    },
    why: 'maximum 5 machines × the 2 GPUs the profile gives gpu-a100-2',
  },
];
