/** Kustomize overlays of many patches over a base of many capacity objects, as generated overlays have them. */

/** One ClusterQueue of the base. */
function queue(i: number): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-${i}
spec:
  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: cpu
              nominalQuota: 96
            - name: nvidia.com/gpu
              nominalQuota: ${(i % 8) + 1}
`;
}

const QUOTA_PATH = '/spec/resourceGroups/0/flavors/0/resources/1/nominalQuota';

/** Strategic merge on even patches, JSON 6902 on odd ones (the two ways kustomize patches), in flow style as generators write them. */
function patch(i: number, target: number, gpus: number): string {
  if (i % 2 === 0) {
    const rg = `[{coveredResources: [cpu, nvidia.com/gpu], flavors: [{name: a100, resources: [{name: cpu, nominalQuota: 96}, {name: nvidia.com/gpu, nominalQuota: ${gpus}}]}]}]`;
    return `  - patch: '{apiVersion: kueue.x-k8s.io/v1beta1, kind: ClusterQueue, metadata: {name: team-${target}}, spec: {resourceGroups: ${rg}}}'\n`;
  }
  return `  - {target: {kind: ClusterQueue, name: team-${target}}, patch: '[{op: replace, path: ${QUOTA_PATH}, value: ${gpus}}]'}\n`;
}

/** Base files hold this many queues each, so that none is over the size detection reads. */
const QUEUES_PER_FILE = 1000;

export const OVERLAY = 'clusters/prod/kustomization.yaml';

export type OverlayShape = 'one patch per queue' | 'every patch on one queue';

/**
 * An overlay of `patches` inline patches over a base of as many queues (or of one queue, every
 * patch on it), at base and at head; every tenth patch asks for 4 more GPUs at head.
 */
export function largeOverlay(
  patches: number,
  shape: OverlayShape,
): { base: Map<string, string>; head: Map<string, string>; chars: number } {
  const queues = shape === 'one patch per queue' ? patches : 1;
  const files = Array.from({ length: Math.ceil(queues / QUEUES_PER_FILE) }, (_, f) =>
    Array.from({ length: Math.min(QUEUES_PER_FILE, queues - f * QUEUES_PER_FILE) }, (_, i) => queue(f * QUEUES_PER_FILE + i)).join('---\n'),
  );
  const kustomization = (grow: boolean) =>
    `resources:\n  - ../base\npatches:\n${Array.from({ length: patches }, (_, i) => {
      const gpus = (i % 8) + 2 + (grow && i % 10 === 0 ? 4 : 0);
      return patch(i, shape === 'one patch per queue' ? i : 0, gpus);
    }).join('')}`;
  const common: [string, string][] = [
    ['clusters/base/kustomization.yaml', `resources:\n${files.map((_, f) => `  - queues-${f}.yaml\n`).join('')}`],
    ...files.map((text, f): [string, string] => [`clusters/base/queues-${f}.yaml`, text]),
  ];
  const head = kustomization(true);
  return { base: new Map([...common, [OVERLAY, kustomization(false)]]), head: new Map([...common, [OVERLAY, head]]), chars: head.length };
}
