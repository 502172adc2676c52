import { describe, expect, it } from 'vitest';
import { parseKueue } from '../../../test/detect/fixtures.js';
import { kueueParser } from './index.js';

/** A Cohort's quota, in each version Kueue served Cohorts in, and beside the queues of its tree. */
const cohort = (apiVersion: string, quota: string, parent = '') =>
  [
    `apiVersion: ${apiVersion}`,
    'kind: Cohort',
    'metadata:',
    '  name: org',
    'spec:',
    ...(parent ? [`  ${parent}`] : []),
    '  resourceGroups:',
    '  - coveredResources: ["cpu", "nvidia.com/gpu"]',
    '    flavors:',
    '    - name: h100',
    '      resources:',
    '      - name: cpu',
    '        nominalQuota: 512',
    '      - name: nvidia.com/gpu',
    `        nominalQuota: ${quota}`,
    '',
  ].join('\n');

describe('Kueue Cohorts', () => {
  for (const [version, parent] of [
    ['kueue.x-k8s.io/v1alpha1', 'parent: root'],
    ['kueue.x-k8s.io/v1beta1', 'parentName: root'],
    ['kueue.x-k8s.io/v1beta2', ''],
  ] as const) {
    it(`${version}: the GPU quota is counted as a Cohort's, apart from its cpu`, () => {
      const text = cohort(version, '24', parent);
      expect(kueueParser.mightContain('cohort.yaml', text)).toBe(true);
      const { decls, diagnostics, unresolved } = parseKueue(text);
      expect(diagnostics).toEqual([]);
      expect(unresolved).toEqual([]);
      expect(decls.map((d) => [d.kind, d.name, d.gpus, d.cohort])).toEqual([['kueue-cohort', 'org', 24, undefined]]);
    });
  }

  it('a quota it cannot read is unknown, never 0', () => {
    const { decls, unresolved } = parseKueue(cohort('kueue.x-k8s.io/v1beta2', '{{ .Values.gpus }}'));
    expect(decls).toEqual([]);
    expect((unresolved ?? []).map((u) => [u.kind, u.name])).toEqual([['kueue-cohort', 'org']]);
  });

  it('a Cohort and a ClusterQueue of one name are two declarations', () => {
    const queue = cohort('kueue.x-k8s.io/v1beta2', '8').replace('kind: Cohort', 'kind: ClusterQueue').replace('24', '8');
    const { decls } = parseKueue(`${cohort('kueue.x-k8s.io/v1beta2', '24')}---\n${queue}`);
    expect(decls.map((d) => [d.kind, d.name, d.gpus])).toEqual([
      ['kueue-cohort', 'org', 24],
      ['kueue-cluster-queue', 'org', 8],
    ]);
  });

  it('a Cohort of another API is no Kueue quota', () => {
    const { decls, unresolved } = parseKueue(cohort('example.com/v1', '24'));
    expect([...decls, ...(unresolved ?? [])]).toEqual([]);
  });
});
