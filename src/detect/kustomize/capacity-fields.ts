/**
 * Where the GPU count of each kind the manifest readers count lives, as JSON pointers: a patch
 * that writes there changes capacity (its line is where the change is reported), and a patch
 * that writes there for an object whose base cannot be read leaves the count unknown. A kind not
 * listed is still counted after rendering (every manifest reader reads the render); for it, any
 * patch outside `metadata` and `status` counts.
 */
interface CapacityFields {
  kind: string;
  /** API groups of the kind (kustomize targets name a group, not an apiVersion). */
  groups: readonly string[];
  fields: readonly string[];
  /** What the count is called in messages. */
  noun: 'quota' | 'limit' | 'size' | 'capacity';
}

const TABLE: readonly CapacityFields[] = [
  { kind: 'ClusterQueue', groups: ['kueue.x-k8s.io'], fields: ['/spec/resourceGroups'], noun: 'quota' },
  { kind: 'NodePool', groups: ['karpenter.sh'], fields: ['/spec/limits', '/spec/replicas', '/spec/template'], noun: 'limit' },
  { kind: 'Provisioner', groups: ['karpenter.sh'], fields: ['/spec/limits', '/spec/requirements'], noun: 'limit' },
  { kind: 'MachineDeployment', groups: ['cluster.x-k8s.io'], fields: ['/spec/replicas', '/spec/template'], noun: 'size' },
  { kind: 'MachinePool', groups: ['cluster.x-k8s.io'], fields: ['/spec/replicas', '/spec/template'], noun: 'size' },
  { kind: 'MachineSet', groups: ['cluster.x-k8s.io', 'machine.openshift.io'], fields: ['/spec/replicas', '/spec/template'], noun: 'size' },
  { kind: 'Cluster', groups: ['cluster.x-k8s.io'], fields: ['/spec/topology'], noun: 'size' },
  { kind: 'MachineAutoscaler', groups: ['autoscaling.openshift.io'], fields: ['/spec'], noun: 'size' },
  { kind: 'ClusterAutoscaler', groups: ['autoscaling.openshift.io'], fields: ['/spec/resourceLimits'], noun: 'limit' },
  {
    kind: 'ContainerNodePool',
    groups: ['container.cnrm.cloud.google.com'],
    fields: ['/spec/nodeCount', '/spec/initialNodeCount', '/spec/autoscaling', '/spec/nodeConfig', '/spec/nodeLocations'],
    noun: 'size',
  },
  { kind: 'ContainerCluster', groups: ['container.cnrm.cloud.google.com'], fields: ['/spec/clusterAutoscaling'], noun: 'limit' },
  { kind: 'Workspace', groups: ['kaito.sh'], fields: ['/resource', '/inference'], noun: 'size' },
  { kind: 'InferenceSet', groups: ['kaito.sh'], fields: ['/spec'], noun: 'size' },
  { kind: 'NodePool', groups: ['compute.coreweave.com'], fields: ['/spec'], noun: 'size' },
  { kind: 'ComputeClass', groups: ['cloud.google.com'], fields: ['/spec'], noun: 'capacity' },
  { kind: 'Queue', groups: ['scheduling.run.ai', 'scheduling.volcano.sh'], fields: ['/spec'], noun: 'quota' },
  { kind: 'ClusterPolicy', groups: ['nvidia.com'], fields: ['/spec'], noun: 'capacity' },
];

/** The entry of a kind (and group, when known), or null for kinds no reader counts by name. */
export function capacityFields(kind: string, group: string | undefined): CapacityFields | null {
  return TABLE.find((t) => t.kind === kind && (group === undefined || group === '' || t.groups.includes(group))) ?? null;
}

/** A patch writing at one of `paths` changes the object's GPU count (or may: `''` is the whole object). */
export function touchesCapacity(paths: readonly string[], kind: string, group: string | undefined): boolean {
  const entry = capacityFields(kind, group);
  const under = (p: string, f: string) => p === f || p.startsWith(`${f}/`) || f.startsWith(`${p}/`);
  if (entry) return paths.some((p) => p === '' || entry.fields.some((f) => under(p, f)));
  return paths.some((p) => p === '' || !/^\/(?:metadata|status|apiVersion|kind)(?:\/|$)/.test(p));
}
