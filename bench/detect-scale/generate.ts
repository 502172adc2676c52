/** Large capacity files of many declarations, as generated configuration has them. */

/** One Kueue ClusterQueue document. */
function queue(i: number, gpus: number): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-${i}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu", "memory", "nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: cpu
              nominalQuota: 96
            - name: memory
              nominalQuota: 768Gi
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;
}

/** One GKE node pool of A100 nodes. */
function pool(i: number, nodes: number): string {
  return `resource "google_container_node_pool" "pool_${i}" {
  name       = "pool-${i}"
  cluster    = "ml"
  location   = "us-central1-a"
  node_count = ${nodes}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;
}

export type Format = 'kueue' | 'terraform';

export const FILE_OF: Record<Format, string> = { kueue: 'clusters/prod/queues.yaml', terraform: 'infra/gke/pools.tf' };

/**
 * A file of about `chars` characters at base and at head; every tenth declaration grows at head,
 * so the comparison has many changes to pair, not just many declarations to read.
 */
export function largeFile(format: Format, chars: number): { base: string; head: string; decls: number } {
  const parts: string[] = [];
  const grown: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const size = (i % 8) + 1;
    const [before, after] =
      format === 'kueue'
        ? [queue(i, size), queue(i, i % 10 === 0 ? size + 4 : size)]
        : [pool(i, size), pool(i, i % 10 === 0 ? size + 2 : size)];
    const sep = format === 'kueue' && i > 0 ? '---\n' : '';
    parts.push(sep + before);
    grown.push(sep + after);
    length += sep.length + after.length;
  }
  return { base: parts.join(''), head: grown.join(''), decls: parts.length };
}
