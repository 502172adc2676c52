import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import type { ParseResult } from '../../src/detect/parser.js';
import { isSaneCount, withSaneCounts } from '../../src/detect/sane-counts.js';
import type { CapacityChange } from '../../src/domain/index.js';
import { MAX_GPU_COUNT } from '../../src/domain/index.js';
import { memoryChangeSet } from '../memory-change-set.js';
import { corpusFiles } from './corpus.js';

/** Numbers no pool or quota holds, in the spellings YAML, HCL, Bicep and quantities allow. */
const HOSTILE = [
  '1e400',
  '-1e400',
  'Infinity',
  '.inf',
  '-.inf',
  '.nan',
  'NaN',
  '-4',
  '9999999999',
  '1000001',
  '1e308',
  '1E',
  '99999999999999999999999',
];

const BICEP = (n: string) => `param nodeCountGPU int = ${n}
resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {
  name: 'ml'
  properties: {
    agentPoolProfiles: [
      {
        name: 'gpupool'
        count: nodeCountGPU
        vmSize: 'Standard_NC6s_v3'
        mode: 'User'
      }
    ]
  }
}
`;

const CLOUDFORMATION = (n: string) => `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  NodeLaunchTemplate:
    Type: "AWS::EC2::LaunchTemplate"
    Properties:
      LaunchTemplateData:
        InstanceType: p4d.24xlarge
  NodeGroup:
    Type: "AWS::AutoScaling::AutoScalingGroup"
    Properties:
      LaunchTemplate:
        LaunchTemplateId: !Ref NodeLaunchTemplate
      MaxSize: ${n}
      MinSize: 0
`;

const KUEUE = (n: string) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${n}
`;

const GKE_TF = (n: string) => `resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  cluster    = "c"
  location   = "us-central1-a"
  node_count = ${n}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;

const TEMPLATES: [string, (n: string) => string, string][] = [
  ['infra/aks.bicep', BICEP, '2'],
  ['eks/nodegroup.yaml', CLOUDFORMATION, '2'],
  ['queues/research.yaml', KUEUE, '8'],
  ['gke/main.tf', GKE_TF, '2'],
];

function expectSane(changes: readonly CapacityChange[]): void {
  for (const c of changes) {
    for (const n of [c.gpusBefore, c.gpusAfter, Math.abs(c.delta)]) expect(isSaneCount(n), `${c.file}:${c.line} ${n}`).toBe(true);
  }
}

describe('hostile numbers', () => {
  it.each(TEMPLATES)('%s: a hostile count is an error at its line, never a verdict or a removal', async (file, template, plain) => {
    // `1E` is a quantity (exa) in Kubernetes YAML only; in Bicep it is a syntax error, not a number.
    for (const value of HOSTILE.filter((v) => !(file.endsWith('.bicep') && v === '1E'))) {
      const text = template(value);
      const { changes, diagnostics } = await detectChanges(memoryChangeSet({ [file]: template(plain) }, { [file]: text }));
      expectSane(changes);
      // The declaration is neither read as removed nor as a change: its count is unreadable.
      expect(changes, `${file} with ${value}`).toEqual([]);
      const errors = diagnostics.filter((d) => d.severity === 'error' && d.file === file);
      expect(errors.length, `${file} with ${value}: ${JSON.stringify(diagnostics)}`).toBeGreaterThan(0);
      for (const e of errors) expect(e.line, e.message).toEqual(expect.any(Number));
    }
  });

  it('turns an overflowing or absurd declaration into an unresolved one with an error at its line', () => {
    const decl = { file: 'a.yaml', line: 3, kind: 'gke-node-pool' as const, name: 'p', gpuModel: null, gpus: Infinity, parts: [] };
    const input: ParseResult = {
      decls: [decl, { ...decl, name: 'q', gpus: 8, line: 9 }, { ...decl, name: 'r', gpus: MAX_GPU_COUNT + 1, line: 12 }],
      diagnostics: [],
    };
    const out = withSaneCounts(input);
    expect(out.decls.map((d) => d.name)).toEqual(['q']);
    expect(out.unresolved).toEqual([
      { file: 'a.yaml', line: 3, kind: 'gke-node-pool', name: 'p' },
      { file: 'a.yaml', line: 12, kind: 'gke-node-pool', name: 'r' },
    ]);
    expect(out.diagnostics.map((d) => [d.line, d.severity, d.message])).toEqual([
      [3, 'error', 'p: GPUs is infinite (the numbers overflow): not a real count, so its GPU capacity was not read'],
      [12, 'error', 'r: GPUs is 1,000,001, more than 1,000,000: not a real count, so its GPU capacity was not read'],
    ]);
  });

  // A registry-module group named apart from its map key: an unreadable count keeps its name.
  it.each([
    [
      'eks.tf',
      (max: string) =>
        `module "eks" {\n  source = "terraform-aws-modules/eks/aws"\n  eks_managed_node_groups = {\n    gpu1 = {\n      name           = "gpu-node-grp"\n      instance_types = ["g5.12xlarge"]\n      max_size       = ${max}\n    }\n  }\n}\n`,
      'gpu-node-grp',
    ],
    [
      'aks.tf',
      (max: string) =>
        `module "aks" {\n  source = "Azure/aks/azurerm"\n  node_pools = {\n    gpu = {\n      name                 = "gpupool"\n      vm_size              = "Standard_NC24ads_A100_v4"\n      auto_scaling_enabled = true\n      max_count            = ${max}\n      min_count            = 0\n    }\n  }\n}\n`,
      'gpupool',
    ],
  ])('%s: a group whose count overflows is unknown under its own name, never removed', async (file, text, name) => {
    const { changes, diagnostics } = await detectChanges(memoryChangeSet({ [file]: text('2') }, { [file]: text('1e400') }));
    expect(changes).toEqual([]);
    expect(diagnostics.some((d) => d.message.startsWith(`${name}: the GPU count after this change could not be read (it was`))).toBe(true);
  });

  // Any number of any corpus file made hostile: whatever the format, no change is insane and no
  // declaration of the base is read as removed.
  const corpus = corpusFiles().filter((f) => /\d/.test(f.text));
  const NUMBER = /(?<![\w.\-"'/])\d+(?![\w.\-"'/])/g;
  it('never yields an insane change or a removal from a hostile number anywhere in a corpus file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...corpus), fc.nat(), fc.constantFrom(...HOSTILE), async (file, pick, value) => {
        const spots = [...file.text.matchAll(NUMBER)];
        if (spots.length === 0) return;
        const spot = spots[pick % spots.length] as RegExpMatchArray;
        const at = spot.index ?? 0;
        const head = file.text.slice(0, at) + value + file.text.slice(at + spot[0].length);
        const { changes } = await detectChanges(memoryChangeSet({ [file.path]: file.text }, { [file.path]: head }));
        expectSane(changes);
        for (const c of changes) expect(c.after, `${file.path}: ${value} at offset ${at} removed ${c.name}`).toBeDefined();
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
