/** Repository files for the App's scenarios: a Kueue ClusterQueue and the workload catalog. */

export function clusterQueue(gpus: number | string): string {
  return `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
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

export const QUEUE_FILE = 'clusters/prod/queues.yaml';

/** Four 2-GPU runs of 2 h that must fit between 00:00 and 06:00 in the research queue. */
export const CATALOG = `workloads:
  - name: nightly-eval
    type: batch
    queue: research
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
    window:
      earliestStart: "00:00"
      deadline: "06:00"
    interruptible: false
`;

/** The same runs with the selector the simulated cluster labels them by, so telemetry finds them. */
export const MEASURED_CATALOG = `workloads:
  - name: nightly-eval
    type: batch
    queue: research
    selector: {namespace: eval}
    gpusPerJob: 2
    runtime: 2h
    jobsPerDay: 4
    window: {earliestStart: "00:00", deadline: "06:00"}
    interruptible: false
`;

/** A ClusterQueue whose quota list is broken YAML: a flow sequence never closed. */
export const MALFORMED_QUEUE = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  resourceGroups:
    - coveredResources: ["cpu", "nvidia.com/gpu"
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: 12
`;

export const README = '# infra\n';

/**
 * A vendored bundle of CustomResourceDefinitions, `bytes` long (ASCII, ending in a newline), after
 * `lead`: many megabytes of YAML no capacity parser wants.
 */
export function crdBundle(bytes: number, lead = ''): string {
  const parts = [lead];
  let length = lead.length;
  for (let i = 0; length < bytes; i++) {
    const doc = `---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets${i}.example.com
spec:
  group: example.com
  names: { kind: Widget${i}, plural: widgets${i} }
  scope: Namespaced
  versions: [{ name: v1, served: true, storage: true }]
`;
    parts.push(doc);
    length += doc.length;
  }
  return `${parts.join('').slice(0, bytes - 1)}\n`;
}
