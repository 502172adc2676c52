import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/**
 * Dynamic Resource Allocation objects, generated in the shapes of the API's versions (v1beta1's
 * `requests[].deviceClassName` and `count`; v1's `requests[].exactly`; a `firstAvailable` list) and
 * of NVIDIA's k8s-dra-driver-gpu examples: a claim's or claim template's devices raised, a class's
 * selector changed, is not followed; an edit of metadata only, or a claim of devices that are no
 * GPU, is no change.
 */

type Version = 'v1beta1' | 'v1' | 'v1-first-available';
const FILE = 'manifests/claims.yaml';

function requests(version: Version, cls: string, count: number, all: boolean): string {
  const mode = all ? 'allocationMode: All' : `allocationMode: ExactCount\n  count: ${String(count)}`;
  const body = (indent: string) =>
    `deviceClassName: ${cls}\n${mode}`
      .split('\n')
      .map((l) => `${indent}${l.trimStart().startsWith('count') ? l.trimStart() : l}`)
      .join('\n');
  if (version === 'v1beta1') return `- name: gpus\n${body('  ')}`;
  if (version === 'v1') return `- name: gpus\n  exactly:\n${body('    ')}`;
  return `- name: gpus\n  firstAvailable:\n    - name: big\n${body('      ')}\n    - name: small\n      deviceClassName: ${cls}\n      count: 1`;
}

function claim(
  kind: 'ResourceClaim' | 'ResourceClaimTemplate',
  version: Version,
  cls: string,
  count: number,
  all: boolean,
  label: string,
): string {
  const api = version === 'v1beta1' ? 'resource.k8s.io/v1beta1' : 'resource.k8s.io/v1';
  const reqs = requests(version, cls, count, all)
    .split('\n')
    .map((l) => `${kind === 'ResourceClaim' ? '      ' : '        '}${l}`)
    .join('\n');
  const spec =
    kind === 'ResourceClaim' ? `spec:\n  devices:\n    requests:\n${reqs}` : `spec:\n  spec:\n    devices:\n      requests:\n${reqs}`;
  return `apiVersion: ${api}\nkind: ${kind}\nmetadata:\n  name: training\n  namespace: ml\n  labels:\n    team: ${label}\n${spec}\n`;
}

async function state(before: string, after: string) {
  const r = await detectPr({ [FILE]: before }, { [FILE]: after });
  return { changes: r.changes.length, state: r.coverage.find((c) => c.file === FILE)?.state };
}

const kinds = fc.constantFrom('ResourceClaim' as const, 'ResourceClaimTemplate' as const);
const versions = fc.constantFrom<Version>('v1beta1', 'v1', 'v1-first-available');
const gpuClasses = fc.constantFrom('gpu.nvidia.com', 'mig.nvidia.com', 'gpu.amd.com', 'gpu.intel.com', 'nvidia-a100');

describe('Dynamic Resource Allocation of GPUs', () => {
  it('a claim whose GPU devices are raised, or made all of a node, is not followed', async () => {
    await fc.assert(
      fc.asyncProperty(kinds, versions, gpuClasses, fc.integer({ min: 1, max: 4 }), fc.boolean(), async (kind, version, cls, n, all) => {
        const r = await state(claim(kind, version, cls, n, false, 'a'), claim(kind, version, cls, n + 4, all, 'a'));
        expect(r).toEqual({ changes: 0, state: 'not-followed' });
      }),
      { numRuns: 30 },
    );
  });

  it('a claim whose metadata only changes is no change', async () => {
    await fc.assert(
      fc.asyncProperty(kinds, versions, gpuClasses, fc.integer({ min: 1, max: 8 }), async (kind, version, cls, n) => {
        const r = await state(claim(kind, version, cls, n, false, 'a'), claim(kind, version, cls, n, false, 'b'));
        expect(r.changes).toBe(0);
        expect(r.state).not.toBe('not-followed');
      }),
      { numRuns: 15 },
    );
  });

  it('a claim of devices that are no GPU (a request called gpus aside) is no change', async () => {
    const r = await state(
      claim('ResourceClaimTemplate', 'v1', 'fpga.example.com', 1, false, 'a'),
      claim('ResourceClaimTemplate', 'v1', 'fpga.example.com', 4, false, 'a'),
    );
    expect(r.changes).toBe(0);
    expect(r.state).not.toBe('not-followed');
  });

  it("a DeviceClass of NVIDIA's driver whose selector or config changes is not followed", async () => {
    const cls = (selector: string) =>
      `apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.nvidia.com\nspec:\n  selectors:\n    - cel:\n        expression: "device.driver == 'gpu.nvidia.com' && ${selector}"\n`;
    const r = await state(cls("device.attributes['gpu.nvidia.com'].type == 'gpu'"), cls('true'));
    expect(r).toEqual({ changes: 0, state: 'not-followed' });
  });
});
