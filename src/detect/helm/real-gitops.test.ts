import { describe, expect, it } from 'vitest';
import { changeRows, detectPr, loadReal } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/** jharmison-redhat/openshift-setup (fixtures/real/SOURCES.md), as the repository lays it out. */
const ROOT = 'helm/openshift-setup/';
const REPO: Tree = Object.fromEntries(Object.entries(loadReal('helm/openshift-setup')).map(([k, v]) => [k.slice(ROOT.length), v]));
const CLUSTER = 'clusters/cluster.internal.rhai-tmm.dev';
const APP = `${CLUSTER}/applications/aws-nvidia-gpu-machinesets.yaml`;
const VALUES = `${CLUSTER}/values/aws-nvidia-gpu-machinesets/values.yaml`;
const OWN = 'git@github.com:jharmison-redhat/openshift-setup.git';
// One g6e.12xlarge (4 GPUs) in the last of the cluster's zones; the other zones' sets have 0 replicas.
const MACHINESET = 'cluster-j7zm5-gpu-worker-us-west-2b';

/** The same install written as an ApplicationSet, one generator shape each: the count must not change. */
const template = (cluster: string, goTemplate = false) => `  template:
    metadata:
      name: aws-nvidia-gpu-machinesets
    spec:
      destination: {name: in-cluster, namespace: openshift-machine-api}
      project: default
      source:
        helm:
          valueFiles:
          - ../../clusters/${cluster}/cluster.yaml
          - ../../clusters/${cluster}/values/aws-nvidia-gpu-machinesets/values.yaml
        path: charts/aws-nvidia-gpu-machinesets
        repoURL: ${OWN}
        targetRevision: HEAD
${goTemplate ? '  goTemplate: true\n' : ''}`;
const set = (generators: string, cluster: string, goTemplate = false) =>
  `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: gpu}\nspec:\n  generators:\n${generators}${template(cluster, goTemplate)}`;
const SETS: Record<string, string> = {
  list: set('  - list:\n      elements: [{cluster: cluster.internal.rhai-tmm.dev}]\n', '{{cluster}}'),
  'git directories': set(`  - git:\n      repoURL: ${OWN}\n      directories: [{path: 'clusters/*'}]\n`, '{{path.basename}}'),
  'git files, goTemplate': set(
    `  - git:\n      repoURL: ${OWN}\n      files: [{path: 'clusters/*/cluster.yaml'}]\n`,
    '{{ .global.cluster.name }}.{{ .global.cluster.baseDomain }}',
    true,
  ),
};

const rows = (t: Tree, head: Tree) => detectPr(t, head, true, ['github.com/jharmison-redhat/openshift-setup']);

describe('a real GitOps repository: a cluster values file fed to the repository chart', () => {
  it('is counted through the Application that names it', async () => {
    const r = await rows(REPO, { ...REPO, [VALUES]: `${REPO[VALUES] ?? ''}desiredReplicas: 2\n` });
    expect(changeRows(r).map((x) => x.slice(1, 4))).toEqual([[MACHINESET, 4, 8]]);
  });

  for (const [shape, text] of Object.entries(SETS)) {
    it(`is counted the same through an ApplicationSet (${shape})`, async () => {
      const tree: Tree = { ...REPO, [APP]: text };
      const r = await rows(tree, { ...tree, [VALUES]: `${REPO[VALUES] ?? ''}desiredReplicas: 2\n` });
      expect(changeRows(r).map((x) => x.slice(1, 4))).toEqual([[`${MACHINESET} [aws-nvidia-gpu-machinesets]`, 4, 8]]);
      const disk = await rows(tree, { ...tree, [VALUES]: (REPO[VALUES] ?? '').replace('500', '600') });
      expect(disk.changes).toEqual([]);
    });
  }

  it('a larger root disk is no change (negative control)', async () => {
    const r = await rows(REPO, { ...REPO, [VALUES]: (REPO[VALUES] ?? '').replace('500', '600') });
    expect(r.changes).toEqual([]);
    expect(r.coverage.every((c) => c.state !== 'not-followed')).toBe(true);
  });
});
