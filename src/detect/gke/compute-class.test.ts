import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { detectPr, edited, loadReal } from '../../../test/detect/real-fixtures.js';
import { gkeComputeClassParser } from './compute-class.js';

/** The shape of GKE's ComputeClass reference, with GPU priorities that create node pools. */
const klass = (
  o: { count?: number; type?: string; creation?: boolean | null; consolidation?: number } = {},
) => `apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: batch-gpu
spec:
${o.creation === null ? '' : `  nodePoolAutoCreation:\n    enabled: ${String(o.creation ?? true)}\n`}  autoscalingPolicy:
    consolidationDelayMinutes: ${o.consolidation ?? 5}
  priorities:
  - machineType: g2-standard-4
    spot: true
    gpu:
      type: ${o.type ?? 'nvidia-l4'}
      count: ${o.count ?? 1}
  - machineType: a3-highgpu-8g
  - nodepools: [l4-reserved]
  whenUnsatisfiable: ScaleUpAnyway
`;
const FILE = 'gke/compute-classes/batch-gpu.yaml';

describe('GKE ComputeClass', () => {
  it('rendered from a Helm chart whose values the pull request changes, is still not followed', async () => {
    const chart = (count: number) => ({
      'charts/gpu-classes/Chart.yaml': 'apiVersion: v2\nname: gpu-classes\nversion: 0.1.0\n',
      'charts/gpu-classes/values.yaml': `gpuCount: ${count}\n`,
      'charts/gpu-classes/templates/class.yaml': klass().replace(/count: \d+/, 'count: {{ .Values.gpuCount }}'),
    });
    const r = await detectPr(chart(1), chart(2));
    expect(r.changes).toEqual([]);
    const flagged = r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);
    expect(flagged).toContain('charts/gpu-classes/values.yaml');
    // Values the class does not read: the same fingerprint at both sides, nothing to follow.
    const same = await detectPr(
      { ...chart(1), 'charts/gpu-classes/values.yaml': 'gpuCount: 1\nother: 1\n' },
      { ...chart(1), 'charts/gpu-classes/values.yaml': 'gpuCount: 1\nother: 2\n' },
    );
    expect(same.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  });

  it('that creates node pools for GPU priorities is not followed: it sets no node count', () => {
    const r = gkeComputeClassParser.parse(FILE, klass());
    expect(r.decls).toEqual([]);
    expect(r.notFollowed).toEqual([
      expect.objectContaining({
        file: FILE,
        line: 11,
        reason: 'count-unknown',
        subject: 'ComputeClass batch-gpu',
        inputs: ['priorities', 'nodePoolAutoCreation'],
      }),
    ]);
    const autopilot = gkeComputeClassParser.parse(
      FILE,
      klass({ creation: null }).replace('spec:\n', 'spec:\n  autopilot:\n    enabled: true\n'),
    );
    expect(autopilot.notFollowed).toEqual([expect.objectContaining({ inputs: ['priorities', 'autopilot'] })]);
  });

  it('that only picks among existing pools, or has no GPU priority, is read with no capacity', () => {
    for (const text of [
      klass({ creation: false }),
      klass({ creation: null }),
      klass().replace(/ {2}- machineType: g2[\s\S]*?- nodepools/, '  - machineFamily: n4\n  - nodepools'),
    ]) {
      const r = gkeComputeClassParser.parse(FILE, text);
      expect(r.decls).toEqual([]);
      expect(r.notFollowed).toBeUndefined();
      expect(r.accounted).toEqual([expect.objectContaining({ file: FILE, from: 1, object: true })]);
    }
  });

  it('is read the same with its keys quoted, its kind anchored and tagged, or written as JSON', () => {
    const quoted = (text: string) =>
      text.replace(/^(\s*(?:- )?)([A-Za-z]+):/gm, '$1"$2":').replace(/^"kind": ComputeClass$/m, '"kind": &k !!str ComputeClass');
    const json = (text: string) => JSON.stringify(parse(text), null, 2);
    for (const creation of [true, false]) {
      const text = klass({ creation });
      const plain = gkeComputeClassParser.parse(FILE, text);
      for (const [path, other] of [
        [FILE, quoted(text)],
        [FILE.replace(/yaml$/, 'json'), json(text)],
      ] as const) {
        const r = gkeComputeClassParser.parse(path, other);
        expect(
          r.notFollowed?.map((n) => [n.reason, n.subject, n.inputs]),
          other,
        ).toEqual(plain.notFollowed?.map((n) => [n.reason, n.subject, n.inputs]));
        expect(r.accounted, other).toHaveLength(1);
      }
    }
  });

  it('a change of its GPU priorities or of what it creates holds the PR; a change elsewhere in it passes', async () => {
    for (const head of [
      klass({ count: 2 }),
      klass({ type: 'nvidia-h100-80gb' }),
      klass({ creation: null }).replace('spec:\n', 'spec:\n  nodePoolAutoCreation: {enabled: true}\n'),
    ]) {
      const result = await detectPr({ [FILE]: klass({ creation: false }) }, { [FILE]: head });
      expect(result.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'not-followed' })]);
    }
    const count = await detectPr({ [FILE]: klass() }, { [FILE]: klass({ count: 2 }) });
    expect(count.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'not-followed' })]);
    const elsewhere = await detectPr({ [FILE]: klass() }, { [FILE]: klass({ consolidation: 10 }) });
    expect(elsewhere.changes).toEqual([]);
    expect(elsewhere.coverage).toEqual([expect.objectContaining({ file: FILE, state: 'read' })]);
  });

  it('raised through a kustomize patch is not followed at the patch; a patch elsewhere in it passes', async () => {
    const base = {
      'gke/base/kustomization.yaml': 'resources:\n  - batch-gpu.yaml\n',
      'gke/base/batch-gpu.yaml': klass(),
      'gke/prod/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: patch.yaml\n',
      'gke/prod/patch.yaml':
        'apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata:\n  name: batch-gpu\nspec:\n  autoscalingPolicy:\n    consolidationDelayMinutes: 5\n',
    };
    const raise = {
      ...base,
      'gke/prod/patch.yaml': `${base['gke/prod/patch.yaml']}  priorities:\n  - machineType: a3-highgpu-8g\n    gpu:\n      type: nvidia-h100-80gb\n      count: 8\n`,
    };
    const raised = await detectPr(base, raise);
    expect(raised.coverage).toEqual([expect.objectContaining({ file: 'gke/prod/patch.yaml', state: 'not-followed' })]);
    const other = { ...base, 'gke/prod/patch.yaml': base['gke/prod/patch.yaml'].replace('Minutes: 5', 'Minutes: 10') };
    const passed = await detectPr(base, other);
    expect(passed.changes).toEqual([]);
    expect(passed.coverage).toEqual([expect.objectContaining({ file: 'gke/prod/patch.yaml', state: 'read' })]);
  });

  describe("on accelerated-platforms' L4 ComputeClass", () => {
    const REAL = loadReal('gke-compute-class');
    const PATH = 'gke-compute-class/accelerated-platforms-gpu-l4-24gb-x2.yaml';

    it('is not followed at its first live priority, not at the commented-out one', () => {
      const r = gkeComputeClassParser.parse(PATH, REAL[PATH] ?? '');
      expect(r.notFollowed).toEqual([expect.objectContaining({ line: 41, subject: 'ComputeClass gpu-l4-24gb-x2' })]);
    });

    it('a GPU count raised in any priority holds the PR; a comment or migration setting does not', async () => {
      for (const at of [0, 2, 4]) {
        let seen = -1;
        const text = (REAL[PATH] ?? '').replace(/ {8}count: 2\n/g, (m) => (++seen === at ? '        count: 4\n' : m));
        const result = await detectPr(REAL, { ...REAL, [PATH]: text });
        expect(result.coverage).toEqual([expect.objectContaining({ file: PATH, state: 'not-followed' })]);
      }
      for (const edit of [
        [PATH, '# Use spot', '# Use spot capacity last'],
        [PATH, 'optimizeRulePriority: true', 'optimizeRulePriority: false'],
        [PATH, '    #     count: 2', '    #     count: 8'],
      ] as [string, string, string][]) {
        const result = await detectPr(REAL, edited(REAL, [edit]));
        expect(result.changes).toEqual([]);
        expect(result.coverage).toEqual([expect.objectContaining({ file: PATH, state: 'read' })]);
      }
    });
  });
});
