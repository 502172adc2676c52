import { describe, expect, it } from 'vitest';
import { changeRows, detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/**
 * A chart the tree installs is applied with each install's values. The search for installs stops
 * past a bound of folders or YAML files; an install beyond it is not seen, and the chart's change
 * read with its defaults alone may be the wrong count (replicas 0 in values.yaml, 4 in the
 * Application). Cut short, the search makes the chart's change not followed, naming the chart's
 * file; never the defaults' reading alone.
 */

const DEPLOYMENT = [
  'apiVersion: cluster.x-k8s.io/v1beta1',
  'kind: MachineDeployment',
  'metadata:',
  '  name: gpu-workers',
  'spec:',
  '  clusterName: lab',
  '  replicas: {{ .Values.replicas }}',
  '  template:',
  '    spec:',
  '      clusterName: lab',
  '      infrastructureRef:',
  '        kind: AWSMachineTemplate',
  '        name: gpu',
  '---',
  'apiVersion: infrastructure.cluster.x-k8s.io/v1beta2',
  'kind: AWSMachineTemplate',
  'metadata:',
  '  name: gpu',
  'spec:',
  '  template:',
  '    spec:',
  '      instanceType: {{ .Values.instanceType }}',
  '',
].join('\n');

const chart = (instanceType: string, extra = ''): Tree => ({
  'charts/gpu-workers/Chart.yaml': 'apiVersion: v2\nname: gpu-workers\nversion: 0.1.0\n',
  'charts/gpu-workers/values.yaml': `replicas: 0\ninstanceType: ${instanceType}\n${extra}`,
  'charts/gpu-workers/templates/workers.yaml': DEPLOYMENT,
});

const APPLICATION = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata:',
  '  name: gpu-workers',
  'spec:',
  '  destination: {server: https://kubernetes.default.svc}',
  '  source:',
  '    path: charts/gpu-workers',
  '    helm:',
  '      valuesObject:',
  '        replicas: 4',
  '',
].join('\n');

/** `folders` empty folders (one small YAML file in each) or `files` YAML files, searched before the install's folder. */
function padding(folders: number, files: number): Tree {
  const out: Tree = {};
  for (let i = 0; i < folders; i++) out[`apps/a${String(i).padStart(5, '0')}/kustomization.yaml`] = 'resources: []\n';
  for (let i = 0; i < files; i++) out[`apps/files/f${String(i).padStart(5, '0')}.yaml`] = `kind: ConfigMap\nmetadata: {name: c${i}}\n`;
  return out;
}

const withInstall = (t: Tree, pad: Tree): Tree => ({ ...t, ...pad, 'zz-clusters/prod/gpu-workers.yaml': APPLICATION });

const notFollowed = (r: Awaited<ReturnType<typeof detectPr>>) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('the search for a chart install cut short', () => {
  it('with the whole tree searched, a change to the defaults is counted through the install', async () => {
    const r = await detectPr(withInstall(chart('m5.xlarge'), padding(20, 20)), withInstall(chart('p4d.24xlarge'), padding(20, 20)));
    expect(changeRows(r).map((x) => x.slice(0, 4))).toEqual([['capi-machinedeployment', 'gpu-workers', 0, 32]]);
    expect(notFollowed(r)).toEqual([]);
  });

  for (const [shape, pad] of [
    ['past the folder bound', padding(2100, 0)],
    ['past the YAML file bound', padding(0, 700)],
  ] as const) {
    it(`${shape}: the chart's change is not followed, never its defaults' count alone`, async () => {
      const r = await detectPr(withInstall(chart('m5.xlarge'), pad), withInstall(chart('p4d.24xlarge'), pad));
      expect(notFollowed(r)).toContain('charts/gpu-workers/values.yaml');
    }, 60_000);

    it(`${shape}: a changed value no capacity template reads is no change`, async () => {
      const r = await detectPr(withInstall(chart('p4d.24xlarge'), pad), withInstall(chart('p4d.24xlarge', 'podLabels: {team: a}\n'), pad));
      expect(r.changes).toEqual([]);
      expect(notFollowed(r)).toEqual([]);
    }, 60_000);
  }

  it('past the bound, a changed template that reads the values is not followed', async () => {
    const pad = padding(2100, 0);
    const head = chart('p4d.24xlarge');
    const raised = {
      ...head,
      'charts/gpu-workers/templates/workers.yaml': DEPLOYMENT.replace('{{ .Values.replicas }}', '{{ add .Values.replicas 2 }}'),
    };
    const r = await detectPr(withInstall(head, pad), withInstall(raised, pad));
    expect(notFollowed(r)).toContain('charts/gpu-workers/templates/workers.yaml');
  }, 60_000);
});
