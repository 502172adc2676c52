import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChanges } from '../../src/detect/detect-changes.js';
import { listingPr } from './listing-tree.js';

/**
 * A workload that hands a GPU machine type to its program (`env`, `args`, `command`) may be the
 * thing that creates the nodes: a Job whose script applies a MachineSet of `INSTANCE_TYPE`. The
 * workload around the type does not account for it, so a change of that type is not followed,
 * never "no change"; the same type where the pod asks for it (a node selector) stays the
 * workload's own, and a CPU-only edit beside it is no change.
 */

type Kind = 'Job' | 'CronJob' | 'Deployment' | 'Pod';
type Place = 'env' | 'args' | 'command';

const TYPES: [string, string][] = [
  ['g6e.4xlarge', 'g6e.48xlarge'],
  ['p4d.24xlarge', 'p5.48xlarge'],
  ['a2-highgpu-1g', 'a2-highgpu-8g'],
  ['Standard_NC6s_v3', 'Standard_NC24s_v3'],
];

function container(place: Place | null, type: string, cpu: number): string {
  const input =
    place === 'env'
      ? `  env:\n    - name: INSTANCE_TYPE\n      value: ${type}\n`
      : place === 'args'
        ? `  args: ["--instance-type", "${type}"]\n`
        : place === 'command'
          ? `  command: ["/bin/sh", "-c", "oc apply -f machineset.yaml --type=${type}"]\n`
          : '';
  return `- name: scale\n  image: registry.example/scale:1\n${input}  resources:\n    requests:\n      cpu: ${cpu}\n`;
}

/** The workload of `kind` running that container; `selector` asks for a node of that type. */
function workload(kind: Kind, place: Place | null, type: string, cpu: number, selector = false): string {
  const indent = (text: string, n: number) => text.replace(/^(?=.)/gm, ' '.repeat(n));
  const pick = selector ? `nodeSelector:\n  node.kubernetes.io/instance-type: ${type}\n` : '';
  const pod = `containers:\n${container(place, type, cpu)}restartPolicy: Never\n${pick}`;
  const api = kind === 'Deployment' ? 'apps/v1' : kind === 'Pod' ? 'v1' : 'batch/v1';
  const head = `apiVersion: ${api}\nkind: ${kind}\nmetadata:\n  name: gpu-machineset\nspec:\n`;
  if (kind === 'Pod') return `${head}${indent(pod, 2)}`;
  if (kind === 'CronJob')
    return `${head}  schedule: "0 * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n${indent(pod, 10)}`;
  return `${head}  template:\n    spec:\n${indent(pod, 6)}`;
}

const PATH = 'components/gpu/job.yaml';
const stateOf = async (base: string, head: string) => {
  const r = await detectChanges(listingPr({ [PATH]: base }, { [PATH]: head }));
  return { state: r.coverage.find((c) => c.file === PATH)?.state, changes: r.changes.length };
};

const kinds = fc.constantFrom<Kind>('Job', 'CronJob', 'Deployment', 'Pod');
const places = fc.constantFrom<Place>('env', 'args', 'command');
const types = fc.constantFrom(...TYPES);

describe('a GPU machine type a workload passes to its program', () => {
  it('changed, is not followed, never no change', async () => {
    await fc.assert(
      fc.asyncProperty(kinds, places, types, async (kind, place, [from, to]) => {
        const r = await stateOf(workload(kind, place, from, 1), workload(kind, place, to, 1));
        expect(r.state).toBe('not-followed');
      }),
      { numRuns: 40 },
    );
  });

  it('where the pod asks for it (a node selector), a CPU-only edit stays the workload’s own', async () => {
    await fc.assert(
      fc.asyncProperty(kinds, types, async (kind, [type]) => {
        const r = await stateOf(workload(kind, null, type, 1, true), workload(kind, null, type, 2, true));
        expect(r.state).not.toBe('not-followed');
        expect(r.changes).toBe(0);
      }),
      { numRuns: 16 },
    );
  });
});
