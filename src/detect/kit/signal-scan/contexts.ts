import type { PathNode } from './structure.js';

/**
 * Where a GPU name says nothing of how much capacity there is:
 * - `comment`: in a comment;
 * - `label`: an object's name, labels, annotations or tags (`metadata.labels`, a pool's
 *   `node_labels`), or a label selector;
 * - `image`: a container image reference;
 * - `request`: what a workload asks for (`resources.requests` / `limits` of a container, Compose
 *   `resources.reservations`, a Ray node's `rayStartParams`): demand, not capacity;
 * - `scheduling`: where a workload may run (`nodeSelector`, `affinity`, `tolerations`, taints,
 *   topology spread, a CI job's `runs-on`);
 * - `reference`: a GPU resource named as an item of a list of resource names, with no quantity
 *   (Kueue's `coveredResources`, a ProvisioningRequestConfig's `managedResources`): a quantity of
 *   it is written elsewhere, where it is a signal of its own.
 */
export type NoCapacity = 'comment' | 'label' | 'image' | 'request' | 'scheduling' | 'reference';

const norm = (key: string) => key.replace(/[-_ ]/g, '');

const LABELS = new Set([
  'labels',
  'annotations',
  'nodelabels',
  'tags',
  'matchlabels',
  'labelselector',
  'commonlabels',
  'commonannotations',
]);
const METADATA_FIELDS = new Set(['name', 'namespace', 'generatename', 'labels', 'annotations', 'finalizers', 'ownerreferences', 'uid']);
const SCHEDULING = new Set([
  'nodeselector',
  'affinity',
  'nodeaffinity',
  'podaffinity',
  'podantiaffinity',
  'tolerations',
  'toleration',
  'topologyspreadconstraints',
  'nodename',
  'taints',
  'taint',
  'nodetaints',
  'runtimeclassname',
  'priorityclassname',
  'schedulername',
  // A CI job's runner labels (GitHub, Gitea and Forgejo Actions' `runs-on`): where the job runs.
  'runson',
]);
const REQUESTS = new Set(['requests', 'limits', 'claims', 'reservations']);

/**
 * Keys and labels that size capacity although they are written as labels or annotations: the
 * cluster autoscaler's node-template resources and capacity annotations, Cluster API's node group
 * sizes, the labels that pick a node's MIG layout or device-plugin config. A GPU name there is
 * never shown to be no capacity by its place.
 */
const CAPACITY_LABEL =
  /node-template\/resources\/|capacity\.cluster-autoscaler\.kubernetes\.io\/|cluster-api-autoscaler-node-group-(?:min|max)-size|nvidia\.com\/(?:mig\.config|device-plugin\.config)(?![\w.-])/i;

function keysOf(path: PathNode | null): string[] {
  const keys: string[] = [];
  for (let p = path; p; p = p.parent) keys.push(norm(p.key));
  return keys.reverse();
}

/** The context that shows a GPU name at `path` to be no capacity, or null when nothing does. */
export function noCapacityContext(path: PathNode | null, token: string, resource = false): NoCapacity | null {
  if (CAPACITY_LABEL.test(token)) return null;
  if (resource && path?.key === '[]' && /resources|resourcenames$/.test(norm(path.parent?.key ?? ''))) return 'reference';
  for (let p = path; p; p = p.parent) if (CAPACITY_LABEL.test(p.key)) return null;
  const keys = keysOf(path);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const next = keys[i + 1];
    if (LABELS.has(k)) return 'label';
    if (k === 'metadata' && next !== undefined && METADATA_FIELDS.has(next)) return 'label';
    if (k === 'image' || k === 'images') return 'image';
    if (k === 'resources' && next !== undefined && REQUESTS.has(next)) return 'request';
    if (k === 'raystartparams') return 'request';
    if (SCHEDULING.has(k)) return 'scheduling';
  }
  return null;
}

/** A container's fields that pass text to the program it runs: what they hold, the pod does not request. */
const PROGRAM_INPUTS = new Set(['env', 'args', 'command']);

/**
 * True when a machine type or family sits in what a workload passes to its program (`env`, `args`,
 * `command`): a script given `INSTANCE_TYPE=g6e.48xlarge` may create nodes of that type (a Job
 * that applies a MachineSet, like the cluster autoscaler's `--nodes`), so the workload around it
 * does not account for it. An accelerator or resource name there (`--device=nvidia-l4`) is what
 * the program runs on: its demand.
 */
export function passedToProgram(path: PathNode | null, kind: string): boolean {
  if (kind !== 'machine-type' && kind !== 'machine-family') return false;
  return keysOf(path).some((k) => PROGRAM_INPUTS.has(k));
}

/**
 * The header of an HCL block that creates no capacity whatever it is called: a data source (it
 * reads, and creates nothing), or a resource that grants permissions (IAM roles, policies and
 * their attachments, role assignments and bindings). A GPU name in its type or labels
 * (`data "aws_ami" "eks_gpu_node"`, `resource "aws_iam_role_policy_attachment" "gpu-ng"`) is the
 * object's name; what its body sets is judged where it is written. Any other resource named for
 * GPUs (an autoscaling group, an unknown type) is no such header: its name may be all that says GPU.
 */
const NAME_ONLY_HEADER =
  /^[ \t]*(?:data[ \t]+"[^"\n]*"|resource[ \t]+"(?:[a-z0-9]+_)+?(?:iam|role|policy_attachment|role_assignment|role_binding)(?:_[a-z0-9_]*)?")(?:[ \t]+"[^"\n]*")?[ \t]*\{/;

/** True when `column` of the HCL line `line` lies in the header of a block that creates no capacity (NAME_ONLY_HEADER). */
export function inNameOnlyHeader(line: string, column: number): boolean {
  const m = NAME_ONLY_HEADER.exec(line);
  return m !== null && column < m[0].length - 1;
}
