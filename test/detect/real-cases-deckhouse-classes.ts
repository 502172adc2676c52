import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on Deckhouse instance classes that state their machines' GPUs
 * themselves rather than by a cloud's machine type: a YandexInstanceClass's `gpus` (default 0)
 * and `platformID`. The fixture is Deckhouse's Yandex Cloud e2e layout: a NodeGroup of one
 * machine per zone in one zone, of a 2-core class.
 */
const FILE = 'yandex-without-nat-resources.yaml';
const TARGET = 'deckhouse/yandex-without-nat-resources.yaml';
const CLASS = '  name: system\nspec:\n  cores: 2\n';

export const DECKHOUSE_CLASS_CASES: readonly RealCase[] = [
  // deckhouse/deckhouse testing/cloud_layouts/Yandex.Cloud/WithoutNAT/resources.yaml
  {
    id: 'deckhouse Yandex layout: class system given gpus 1 on gpu-standard-v3',
    target: TARGET,
    edits: [[FILE, CLASS, `${CLASS}  gpus: 1\n  platformID: gpu-standard-v3\n`]],
    expect: [['deckhouse-nodegroup', 'system-a', 0, 1]],
    why: 'maxPerZone 1 × 1 zone × 1 GPU per machine',
  },
  {
    id: 'deckhouse Yandex layout: class system given gpus 4, maxPerZone 1 → 3',
    target: TARGET,
    edits: [
      [FILE, CLASS, `${CLASS}  gpus: 4\n  platformID: gpu-standard-v3\n`],
      [FILE, 'maxPerZone: 1', 'maxPerZone: 3'],
    ],
    expect: [['deckhouse-nodegroup', 'system-a', 0, 12]],
    why: '3 machines in the one zone, 4 GPUs each: 12',
  },
  {
    id: 'deckhouse Yandex layout: class system given gpus 2, a second zone added',
    target: TARGET,
    edits: [
      [FILE, CLASS, `${CLASS}  gpus: 2\n  platformID: gpu-standard-v3\n`],
      [FILE, '    - ru-central1-a\n', '    - ru-central1-a\n    - ru-central1-b\n'],
    ],
    expect: [['deckhouse-nodegroup', 'system-a', 0, 4]],
    why: 'maxPerZone 1 × 2 zones × 2 GPUs',
  },
  {
    id: 'deckhouse Yandex layout: class system moved to platform gpu-standard-v3 with no gpus',
    target: TARGET,
    edits: [[FILE, CLASS, `${CLASS}  platformID: gpu-standard-v3\n`]],
    expect: 'not-followed',
    why: 'a GPU platform with the default of 0 GPUs is refused by the cloud; how many GPUs were meant cannot be told',
  },
  {
    id: 'deckhouse Yandex layout: class system cores 2 → 8, memory 8192 → 32768 (negative control)',
    target: TARGET,
    edits: [
      [FILE, CLASS, '  name: system\nspec:\n  cores: 8\n'],
      [FILE, 'memory: 8192', 'memory: 32768'],
    ],
    expect: [],
    why: 'a larger CPU machine; the class states no GPU',
  },
  {
    id: 'deckhouse Yandex layout: maxPerZone 1 → 5, gpus: 0 written out (negative control)',
    target: TARGET,
    edits: [
      [FILE, 'maxPerZone: 1', 'maxPerZone: 5'],
      [FILE, CLASS, `${CLASS}  gpus: 0\n`],
    ],
    expect: [],
    why: 'a class of 0 GPUs on the default CPU platform grows no GPU, however many machines',
  },
];
