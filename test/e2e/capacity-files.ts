import { KUEUE, POOLS } from '../helpers/prometheus/index.js';

/** A v1beta2 ClusterQueue with one GPU quota on the simulated cluster's flavor. */
export function clusterQueue(name: string, gpus: number, cohort: string | null): string {
  return [
    'apiVersion: kueue.x-k8s.io/v1beta2',
    'kind: ClusterQueue',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    ...(cohort ? [`  cohortName: ${cohort}`] : []),
    '  resourceGroups:',
    '  - coveredResources: ["nvidia.com/gpu"]',
    '    flavors:',
    `    - name: ${KUEUE.flavor}`,
    '      resources:',
    '      - name: "nvidia.com/gpu"',
    `        nominalQuota: ${gpus}`,
    '',
  ].join('\n');
}

/** A Karpenter NodePool of one instance type, limited to `gpus` GPUs. */
export function karpenterPool(name: string, instanceType: string, gpus: number): string {
  return [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  template:',
    '    spec:',
    '      requirements:',
    '        - key: node.kubernetes.io/instance-type',
    '          operator: In',
    `          values: ["${instanceType}"]`,
    '  limits:',
    `    nvidia.com/gpu: ${gpus}`,
    '',
  ].join('\n');
}

/** A Karpenter NodePool of the simulated L4 pool, limited to `gpus` GPUs. */
export const l4Pool = (gpus: number): string => karpenterPool(POOLS.l4.name, 'g6.12xlarge', gpus);
