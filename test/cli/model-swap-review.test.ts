import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_TYPES } from '../../src/detect/kit/gpu-types/aws.js';
import { GKE_ACCELERATORS } from '../../src/detect/kit/gpu-types/gcp.js';
import { normaliseGpuModel } from '../../src/domain/index.js';
import { pricePerGpuHour } from '../../src/detect/kit/gpu-types/index.js';
import { runCli } from './run-cli.js';
import { writeFiles } from './tree-readers/helpers.js';

/**
 * A change of GPU model is judged by what it buys, not by its count: a swap to a dearer model, to
 * one without a price, or one that costs more a month asks for every GPU of its head side and is
 * never "lowered"; a swap to a cheaper model at no more cost asks for nothing and is not called a
 * cut. Generated over the GKE accelerator table (Kueue ResourceFlavors) and the EC2 GPU types
 * (eksctl node groups), with and without a catalog, in advise and enforce mode.
 */

const flavorQueue = (accelerator: string, quota: number) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    cloud.google.com/gke-accelerator: ${accelerator}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["nvidia.com/gpu"]
    flavors:
    - name: gpu
      resources:
      - name: nvidia.com/gpu
        nominalQuota: ${quota}
`;

const nodeGroup = (type: string, max: number) => `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: ml
  region: us-east-1
managedNodeGroups:
  - name: gpu
    instanceType: ${type}
    minSize: 0
    maxSize: ${max}
`;

/** A daily job on the queue or pool: `gpus` GPUs for 4 hours in a 6-hour window. */
const catalog = (where: string, gpus: number) =>
  `workloads:\n  - name: nightly\n    type: batch\n    ${where}\n    gpusPerJob: ${gpus}\n    runtime: 4h\n    window: { earliestStart: "00:00", deadline: "06:00" }\n`;

interface Side {
  model: string;
  files: Record<string, string>;
  gpus: number;
}

// A flavor's label is read as normaliseGpuModel reads it (an accelerator it does not know keeps its name, unpriced).
const accelerators = Object.keys(GKE_ACCELERATORS).map((name) => [name, normaliseGpuModel(name)] as const);
const arbKueue = fc
  .tuple(fc.constantFrom(...accelerators), fc.constantFrom(...accelerators), fc.integer({ min: 1, max: 64 }))
  .filter(([a, b]) => a[1] !== b[1])
  .map(([[fromName, fromModel], [toName, toModel], quota]): [Side, Side] => [
    { model: fromModel, gpus: quota, files: { 'kueue/queue.yaml': flavorQueue(fromName, quota) } },
    { model: toModel, gpus: quota, files: { 'kueue/queue.yaml': flavorQueue(toName, quota) } },
  ]);
const whole = AWS_TYPES.filter((t) => Number.isInteger(t.gpus) && t.gpus > 0);
const arbEks = fc
  .tuple(fc.constantFrom(...whole), fc.constantFrom(...whole), fc.integer({ min: 1, max: 8 }))
  .filter(([a, b]) => a.gpus === b.gpus && a.gpuModel !== b.gpuModel)
  .map(([from, to, max]): [Side, Side] => [
    { model: from.gpuModel, gpus: max * from.gpus, files: { 'eksctl/cluster.yaml': nodeGroup(from.type, max) } },
    { model: to.gpuModel, gpus: max * to.gpus, files: { 'eksctl/cluster.yaml': nodeGroup(to.type, max) } },
  ]);

let root: string;
let runs = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'model-swap-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function review(base: Side, head: Side, extra: Record<string, string> = {}, ...flags: string[]) {
  const dir = join(root, String(runs++));
  await writeFiles(join(dir, 'base'), { ...base.files, ...extra });
  await writeFiles(join(dir, 'head'), { ...head.files, ...extra });
  const json = await runCli('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'), '--format', 'json', ...flags);
  const md = await runCli('review', '--base', join(dir, 'base'), '--head', join(dir, 'head'), ...flags);
  const headline = md.stdout.split('\n').find((l) => l.startsWith('### ')) ?? '';
  const parsed = JSON.parse(json.stdout) as Record<string, unknown> & { reviews: Record<string, unknown>[] };
  return { json: parsed, code: json.code, headline, mode: md.stdout.split('\n').find((l) => l.startsWith('**Mode:')) ?? '' };
}

/** Whether the swap asks, from the price table alone: dearer or unpriced (the count is equal). */
function asks(from: string, to: string): boolean {
  const before = pricePerGpuHour(from);
  const after = pricePerGpuHour(to);
  return before === null || after === null || after > before;
}

describe('a GPU model swap at the same count', () => {
  for (const [kind, arb] of [
    ['Kueue ResourceFlavor under a ClusterQueue', arbKueue],
    ['eksctl node group instance type', arbEks],
  ] as const) {
    it(`${kind}: asks for its head's GPUs when dearer or unpriced, and is never called lowered`, async () => {
      await fc.assert(
        fc.asyncProperty(arb, async ([base, head]) => {
          const { json, headline } = await review(base, head);
          expect(headline).not.toMatch(/lowered/i);
          const swap = json.reviews[0]?.['modelSwap'] as { asks: boolean; gpusAsked: number } | undefined;
          expect(swap).toMatchObject({ modelBefore: base.model, modelAfter: head.model });
          if (asks(base.model, head.model)) {
            expect(json).toMatchObject({ verdict: 'insufficient-evidence', gpusRequested: head.gpus });
            expect(swap).toMatchObject({ asks: true, gpusAsked: head.gpus });
            expect(headline).toContain(`+${head.gpus} GPUs requested (GPU model changed on`);
          } else {
            expect(json).toMatchObject({ verdict: 'justified', gpusRequested: 0 });
            expect(swap).toMatchObject({ asks: false, gpusAsked: 0 });
            expect(headline).toContain(`GPU model changed on`);
            expect(headline).toContain('nothing to justify');
          }
        }),
        { numRuns: 25 },
      );
    }, 120_000);
  }

  it('T4 → H100 on a flavor: the repro reads as a model change with its cost, not as lowered', async () => {
    const base: Side = { model: 'T4', gpus: 8, files: { 'queue.yaml': flavorQueue('nvidia-tesla-t4', 8) } };
    const head: Side = { model: 'H100', gpus: 8, files: { 'queue.yaml': flavorQueue('nvidia-h100-80gb', 8) } };
    const { json, headline } = await review(base, head);
    expect(headline).toContain('+8 GPUs requested (GPU model changed on team-a: T4 → H100 at 8 GPUs, +$');
    expect(json.reviews[0]?.['modelSwap']).toMatchObject({ code: 'dearer-model', asks: true, gpusAsked: 8 });
  });

  it('enforce mode fails a dearer swap the review cannot justify, and passes a cheaper one', async () => {
    const enforce = { '.github/gpu-justify.yml': 'mode: enforce\n' };
    const t4 = (n: number): Side => ({ model: 'T4', gpus: n, files: { 'queue.yaml': flavorQueue('nvidia-tesla-t4', n) } });
    const h100 = (n: number): Side => ({ model: 'H100', gpus: n, files: { 'queue.yaml': flavorQueue('nvidia-h100-80gb', n) } });
    const up = await review(t4(8), h100(8), enforce);
    expect(up.json['verdict']).toBe('insufficient-evidence');
    expect(up.mode).toContain('the check fails');
    const down = await review(h100(8), t4(8), enforce);
    expect(down.json['verdict']).toBe('justified');
    expect(down.mode).toContain('the check passes');
  });

  it('with a catalog, the head GPUs are judged as demand on the new model, counted from 0', async () => {
    const side = (acc: string, model: string): Side => ({ model, gpus: 8, files: { 'queue.yaml': flavorQueue(acc, 8) } });
    const needsAll = await review(side('nvidia-tesla-t4', 'T4'), side('nvidia-h100-80gb', 'H100'), {
      'gpu-workloads.yaml': catalog('queue: team-a', 8),
    });
    expect(needsAll.json).toMatchObject({ verdict: 'justified', gpusRequested: 8, gpusNeeded: 8 });
    const needsFew = await review(side('nvidia-tesla-t4', 'T4'), side('nvidia-h100-80gb', 'H100'), {
      'gpu-workloads.yaml': catalog('queue: team-a', 2),
    });
    expect(needsFew.json).toMatchObject({ verdict: 'partially-justified', gpusRequested: 8 });
    expect(needsFew.json['gpusNeeded']).toBeLessThan(8);
    expect(needsFew.headline).not.toMatch(/lowered/i);
  });

  it('a cheaper model with fewer GPUs is a cut; more GPUs of a cheaper model that cost more ask for them all', async () => {
    const q = (acc: string, model: string, n: number): Side => ({ model, gpus: n, files: { 'queue.yaml': flavorQueue(acc, n) } });
    const cut = await review(q('nvidia-h100-80gb', 'H100', 8), q('nvidia-tesla-t4', 'T4', 4));
    expect(cut.json).toMatchObject({ verdict: 'justified', gpusRequested: 0 });
    expect(cut.headline).toContain('H100 → T4, 8 → 4 GPUs');
    const more = await review(q('nvidia-l4', 'L4', 2), q('nvidia-tesla-t4', 'T4', 16));
    expect(more.json['gpusRequested']).toBe(16);
    expect(more.json.reviews[0]?.['modelSwap']).toMatchObject({ code: 'cost-rises', asks: true });
  });
});
