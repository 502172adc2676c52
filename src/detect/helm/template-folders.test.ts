import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * Helm renders every file under a chart's `templates/`, its subfolders too, and parses the
 * `define`s of all of them first. A pool or queue written a folder or two down (`templates/gpu/`,
 * as charts that ship several pools do), with its helpers in another, must read as it does at the
 * top: a values change counted through it, a change to the template itself counted.
 */

const POOL = [
  'apiVersion: karpenter.sh/v1',
  'kind: NodePool',
  'metadata:',
  '  name: {{ include "pools.name" . }}',
  'spec:',
  '  {{- if .Values.gpu.limits }}',
  '  limits:',
  '  {{- .Values.gpu.limits | toYaml | nindent 4 }}',
  '  {{- end }}',
  '  template:',
  '    spec:',
  '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
  '      requirements:',
  '        - key: karpenter.k8s.aws/instance-family',
  '          operator: In',
  '          values: {{ .Values.gpu.families | toJson }}',
  '',
].join('\n');

const QUEUE = [
  'apiVersion: kueue.x-k8s.io/v1beta1',
  'kind: ClusterQueue',
  'metadata:',
  '  name: research',
  'spec:',
  '  resourceGroups:',
  '    - coveredResources: ["nvidia.com/gpu"]',
  '      flavors:',
  '        - name: a100',
  '          resources:',
  '            - name: nvidia.com/gpu',
  '              nominalQuota: {{ .Values.queue.gpus }}',
  '',
].join('\n');

const HELPERS = '{{- define "pools.name" -}}{{ .Values.gpu.name | default "gpu" }}{{- end }}\n';

const values = (limit: number, gpus: number) =>
  `gpu:\n  name: gpu-workloads\n  families: [g5, p5]\n  limits:\n    nvidia.com/gpu: ${limit}\nqueue:\n  gpus: ${gpus}\n`;

/** Where the chart keeps its pool, queue and helpers. */
const LAYOUTS: Record<string, { pool: string; queue: string; helpers: string }> = {
  'all at the top': { pool: 'templates/nodepool.yaml', queue: 'templates/queue.yaml', helpers: 'templates/_helpers.tpl' },
  'a folder down': { pool: 'templates/gpu/nodepool.yaml', queue: 'templates/kueue/queue.yaml', helpers: 'templates/_helpers.tpl' },
  'two folders down, helpers in a folder': {
    pool: 'templates/pools/gpu/nodepool.yaml',
    queue: 'templates/queues/research/queue.yaml',
    helpers: 'templates/common/_names.tpl',
  },
  'a folder named templates inside': {
    pool: 'templates/templates/nodepool.yaml',
    queue: 'templates/x/templates/queue.yaml',
    helpers: 'templates/_helpers.tpl',
  },
};

const chart = (dir: string, layout: { pool: string; queue: string; helpers: string }, v: string, pool = POOL): Tree => ({
  [`${dir}/Chart.yaml`]: 'apiVersion: v2\nname: pools\nversion: 0.1.0\n',
  [`${dir}/values.yaml`]: v,
  [`${dir}/${layout.pool}`]: pool,
  [`${dir}/${layout.queue}`]: QUEUE,
  [`${dir}/${layout.helpers}`]: HELPERS,
});

const rows = (r: Awaited<ReturnType<typeof detectPr>>) => changeRows(r).map((x) => [x[0], x[1], x[2], x[3]]);

describe('chart templates in subfolders of templates/', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    for (const dir of ['charts/pools', 'platform/helm/pools']) {
      it(`${name} (${dir}): a values change is counted through each template`, async () => {
        for (const [from, to] of [
          [8, 16],
          [2, 64],
        ] as const) {
          const r = await detectPr(chart(dir, layout, values(from, from * 2)), chart(dir, layout, values(to, to * 2)));
          expect(rows(r).sort()).toEqual([
            ['karpenter-nodepool', 'gpu-workloads', from, to],
            ['kueue-cluster-queue', 'research', from * 2, to * 2],
          ]);
        }
      });

      it(`${name} (${dir}): a change to the template itself is counted`, async () => {
        const v = values(8, 4);
        const raised = POOL.replace('.Values.gpu.limits | toYaml | nindent 4', 'dict "nvidia.com/gpu" 32 | toYaml | nindent 4');
        const r = await detectPr(chart(dir, layout, v), chart(dir, layout, v, raised));
        expect(rows(r)).toEqual([['karpenter-nodepool', 'gpu-workloads', 8, 32]]);
      });
    }
  }

  it('a change beside the GPU fields of a pool a folder down is no change', async () => {
    const layout = LAYOUTS['a folder down'] as { pool: string; queue: string; helpers: string };
    const v = values(8, 4);
    const r = await detectPr(chart('charts/pools', layout, v), chart('charts/pools', layout, `${v}extra: {cpu: 4}\n`));
    expect(r.changes).toEqual([]);
    expect(r.coverage.filter((c) => c.state === 'not-followed')).toEqual([]);
  });
});
