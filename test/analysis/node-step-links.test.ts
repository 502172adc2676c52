import { describe, expect, it } from 'vitest';
import { linkHints } from '../../src/analysis/link-hints.js';
import { neededInSteps } from '../../src/analysis/node-step.js';
import { reviewChange } from '../../src/analysis/review-change.js';
import { judgePr } from '../../src/analysis/review-pr.js';
import { runReview } from '../../src/review/index.js';
import type { CapacityChange, CapacityDecl } from '../../src/domain/index.js';
import { DEFAULT_POLICY } from '../../src/domain/index.js';
import { batch, policy, queueChange, service } from '../factories.js';
import { detectPr, edited, loadReal } from '../detect/real-fixtures.js';
import { reviewReason } from '../../src/report/reasons.js';
import { missingWords } from '../../src/report/missing-words.js';

/** A node pool change whose head side grows in steps of `step` GPUs. */
function poolChange(name: string, before: number, after: number, step?: number): CapacityChange {
  const decl = (gpus: number): CapacityDecl => ({
    file: 'infra/eks.tf',
    line: 64,
    kind: 'eks-node-group',
    name,
    gpuModel: 'H100',
    gpus,
    parts: [],
    ...(step === undefined ? {} : { gpuStep: step }),
  });
  return {
    ...queueChange(name, before, after),
    file: 'infra/eks.tf',
    line: 64,
    kind: 'eks-node-group',
    gpuModel: 'H100',
    before: decl(before),
    after: decl(after),
  };
}

describe('a pool that grows by whole nodes', () => {
  it.each([
    // [needed, before, after, step, least request]
    [2, 16, 24, 8, 8],
    [2, 16, 32, 8, 8],
    [9, 16, 32, 8, 16],
    [0, 16, 24, 8, 0],
    [2, 16, 24, undefined, 2],
    // The head's count comes down in steps from what it asks, whatever the base had.
    [1, 4, 10, 4, 2],
  ])('needs %i more of %i → %i in steps of %s: asks for +%i', (needed, before, after, step, least) => {
    expect(neededInSteps(needed, poolChange('g', before, after, step))).toBe(least);
  });

  /** A 16-GPU job with 10% headroom needs 18 GPUs: 2 over the 16 there, on a pool of 8-GPU nodes. */
  const pretrainOn = (after: number) =>
    reviewChange({
      change: poolChange('nvidia-efa', 16, after, 8),
      workloads: [
        batch({
          name: 'pretrain',
          queue: undefined,
          pool: 'nvidia-efa',
          gpusPerJob: 16,
          runtime: 1200,
          window: { earliestStart: 0, deadline: 0 },
        }),
      ],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.1 }),
    });

  it('two more GPUs of p5.48xlarge nodes is one more node: the +8 is justified, not "ask for +2"', () => {
    const r = pretrainOn(24);
    expect([r.verdict, r.need, r.gpusNeeded]).toEqual(['justified', 18, 8]);
    expect(reviewReason(r)).toMatch(/calls for 2 more GPUs, and this pool grows in steps of 8 GPUs: \+8 is the least that covers it/);
    expect(judgePr([r.change], [r])).toEqual({ verdict: 'justified', gpusRequested: 8, gpusNeeded: 8 });
  });

  it('asking two nodes where one covers the need is partly justified by one node', () => {
    const r = pretrainOn(32);
    expect([r.verdict, r.gpusNeeded]).toEqual(['partially-justified', 8]);
    expect(reviewReason(r)).toContain('calls for 2 more GPUs; this pool grows in steps of 8 GPUs, so that is 8, not 16');
  });

  it('from the real terraform-aws-modules file: 2 → 3 p5 nodes for a 16-GPU job with headroom', async () => {
    const base = loadReal('terraform-eks/eks-blueprints-nvidia-gpu-efa-eks.tf');
    const head = edited(base, [['eks.tf', 'max_size     = 2\n      desired_size = 2', 'max_size     = 3\n      desired_size = 3']]);
    const catalog =
      'workloads:\n  - name: pretrain\n    type: training\n    pool: nvidia-efa\n    gpusPerJob: 16\n    runtime: 20h\n    window: { earliestStart: "00:00", deadline: "00:00" }\n';
    const detected = await detectPr(base, head);
    const files = (t: Record<string, string>) => ({ ...t, 'gpu-workloads.yaml': catalog });
    const changes = {
      base: reader(files(base)),
      head: reader(files(head)),
      changedPaths: () => Promise.resolve(Object.keys(head).filter((p) => head[p] !== base[p])),
    };
    const result = await runReview({ changes, policy: { policy: { ...DEFAULT_POLICY, headroom: 0.1 }, diagnostics: [], file: null } });
    expect(detected.changes.map((c) => [c.gpusBefore, c.gpusAfter])).toEqual([[16, 24]]);
    expect([result.verdict, result.gpusRequested, result.gpusNeeded]).toEqual(['justified', 8, 8]);
  });

  it('a quota has no step: a queue asks for exactly what it needs', () => {
    const r = reviewChange({
      change: queueChange('research', 4, 8),
      workloads: [batch({ name: 'e', jobsPerDay: 4 })],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.2 }),
    });
    expect([r.verdict, r.gpusNeeded]).toEqual(['partially-justified', 1]);
  });
});

function reader(tree: Record<string, string>) {
  return { label: 'side', read: (p: string) => Promise.resolve(tree[p] ?? null) };
}

describe('when no catalog entry links to a change', () => {
  const how = (change: CapacityChange, workloads: Parameters<typeof linkHints>[1]) =>
    missingWords(
      reviewChange({ change, workloads: [...workloads], catalogFile: 'gpu-workloads.yaml', policy: policy() }).missingEvidence[0]!,
    ).how;

  it('names the entry written with the Terraform resource label instead of the pool name', () => {
    const change = { ...poolChange('mathsgpt-gpu-cluster-gpu-pool', 3, 6, 3), kind: 'gke-node-pool' as const };
    const serve = service({ name: 'mathgpt-serve', queue: undefined, pool: 'gpu_pool', source: { file: 'gpu-workloads.yaml', line: 2 } });
    expect(how(change, [serve])).toBe(
      'document them in gpu-workloads.yaml with `pool: mathsgpt-gpu-cluster-gpu-pool`. Close but not linked: gpu-workloads.yaml:2 (mathgpt-serve) has `pool: gpu_pool`. ' +
        'A workload links only by the exact name this change declares, `pool: mathsgpt-gpu-cluster-gpu-pool` (after any Kustomize namePrefix/nameSuffix or Terraform interpolation, not the Terraform resource label)',
    );
  });

  it('names the entry whose queue is a typo of the changed one', () => {
    const nightly = batch({ name: 'nightly', queue: 'reserch', source: { file: 'gpu-workloads.yaml', line: 4 } });
    expect(how(queueChange('research', 4, 8), [nightly])).toContain(
      'Close but not linked: gpu-workloads.yaml:4 (nightly) has `queue: reserch`.',
    );
    // Two edits apart in a short name is another word, not a typo.
    const other = batch({ name: 'x', queue: 'ml', source: { file: 'gpu-workloads.yaml', line: 4 } });
    expect(how(queueChange('ai', 4, 8), [other])).not.toContain('Close but not linked');
  });

  it('names the entry written with the base name of a queue a Kustomize namePrefix renames', () => {
    const eval1 = batch({ name: 'team1-eval', queue: 'team1', source: { file: 'gpu-workloads.yaml', line: 11 } });
    expect(how(queueChange('prod-team1', 12, 14), [eval1])).toContain(
      'Close but not linked: gpu-workloads.yaml:11 (team1-eval) has `queue: team1`.',
    );
  });

  it('names the entry that gives the queue as its pool', () => {
    const eval1 = batch({ name: 'team1-eval', queue: undefined, pool: 'research', source: { file: 'gpu-workloads.yaml', line: 4 } });
    expect(how(queueChange('research', 4, 8), [eval1])).toContain(
      'gpu-workloads.yaml:4 (team1-eval) has `pool: research`, but a ClusterQueue links by `queue:`',
    );
  });

  it('says nothing more when no entry comes close', () => {
    expect(
      linkHints(queueChange('research', 4, 8), [batch({ name: 'x', queue: 'searcher' }), batch({ name: 'y', queue: 'prod' })]),
    ).toEqual([]);
    expect(how(queueChange('research', 4, 8), [batch({ name: 'y', queue: 'training' })])).toBe(
      'document them in gpu-workloads.yaml with `queue: research`',
    );
  });
});

describe('how to act on a pool asked for a node too many', () => {
  it('names the request in GPUs and in steps of whole nodes', async () => {
    const { doThis } = await import('../../src/report/do-this.js');
    const pretrain = batch({
      name: 'pretrain',
      queue: undefined,
      pool: 'nvidia-efa',
      gpusPerJob: 16,
      runtime: 1200,
      window: { earliestStart: 0, deadline: 0 },
    });
    const r = reviewChange({
      change: poolChange('nvidia-efa', 16, 32, 8),
      workloads: [pretrain],
      catalogFile: 'gpu-workloads.yaml',
      policy: policy({ headroom: 0.1 }),
    });
    const result = {
      ...judgePr([r.change], [r]),
      changes: [r.change],
      reviews: [r],
      findings: r.findings,
      missingEvidence: [],
      diagnostics: [],
      context: {
        mode: 'advise' as const,
        headroom: 0.1,
        catalogFile: 'gpu-workloads.yaml',
        catalogChangedInPr: false,
        policyChangedInPr: false,
        baseLabel: 'b',
        headLabel: 'h',
      },
    };
    expect(doThis(result)?.split('\n')).toContain(
      '- Ask for 24 GPUs (+8) in `infra/eks.tf:64` instead of 32 (the pool grows in steps of 8 GPUs: 1 step fewer).',
    );
  });
});
