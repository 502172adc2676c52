import type { Tree } from './real-fixtures.js';

/** A chart of this repository whose ClusterQueue takes its GPUs from values. */
export const QUEUE_CHART: Tree = {
  'charts/queues/Chart.yaml': 'apiVersion: v2\nname: queues\nversion: 0.1.0\n',
  'charts/queues/values.yaml': 'queue:\n  name: research\n  gpus: 4\n  flavor: a100\n',
  'charts/queues/templates/cluster-queue.yaml': [
    'apiVersion: kueue.x-k8s.io/v1beta1',
    'kind: ClusterQueue',
    'metadata:',
    '  name: {{ .Values.queue.name }}',
    'spec:',
    '  resourceGroups:',
    '    - coveredResources: ["nvidia.com/gpu"]',
    '      flavors:',
    '        - name: {{ .Values.queue.flavor }}',
    '          resources:',
    '            - name: nvidia.com/gpu',
    '              nominalQuota: {{ .Values.queue.gpus }}',
    '',
  ].join('\n'),
};
