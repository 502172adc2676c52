import { describe, expect, it } from 'vitest';
import { detectPr } from '../../../test/detect/real-fixtures.js';
import type { Tree } from '../../../test/detect/real-fixtures.js';

/** A GPU NodePool whose limits come from a named template of _helpers.tpl, not from `.Values` in the file. */
const chart = (gpus: number, helper: string): Tree => ({
  'charts/pools/Chart.yaml': 'apiVersion: v2\nname: pools\nversion: 0.1.0\n',
  'charts/pools/values.yaml': `gpu:\n  limit: ${gpus}\n`,
  'charts/pools/templates/_helpers.tpl': `{{- define "pools.limits" -}}\nnvidia.com/gpu: ${helper}\n{{- end }}\n`,
  'charts/pools/templates/nodepool.yaml': [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata:',
    '  name: gpu',
    'spec:',
    '  template:',
    '    spec:',
    '      requirements:',
    '        - key: karpenter.k8s.aws/instance-family',
    '          operator: In',
    '          values: ["p5"]',
    '  limits:',
    '    {{- include "pools.limits" . | nindent 4 }}',
    '',
  ].join('\n'),
});

describe('a chart whose capacity template reads values through a named template', () => {
  it('renders the named template with the values, as Helm does', async () => {
    for (const helper of ['{{ .Values.gpu.limit }}', '{{ $.Values.gpu.limit | int }}', '{{ default 2 .Values.gpu.limit }}']) {
      const result = await detectPr(chart(8, helper), chart(16, helper));
      expect(result.changes.map((c) => [c.kind, c.gpusBefore, c.gpusAfter])).toEqual([['karpenter-nodepool', 8, 16]]);
      expect(result.coverage.map((c) => c.state)).not.toContain('not-followed');
    }
  });

  it('is not followed when the named template uses what the renderer does not know, never passed as no change', async () => {
    for (const helper of [
      '{{ lookup "v1" "ConfigMap" "" "x" | len }}{{ .Values.gpu.limit }}',
      '{{ .Capabilities.KubeVersion.Minor }}{{ .Values.gpu.limit }}',
    ]) {
      const result = await detectPr(chart(8, helper), chart(16, helper));
      expect(result.coverage).toEqual([expect.objectContaining({ file: 'charts/pools/values.yaml', state: 'not-followed' })]);
    }
  });

  it('a values change that renders the same is still read as no change', async () => {
    const helper = '{{ .Values.gpu.limit }}';
    const base = chart(8, helper);
    const result = await detectPr(base, { ...base, 'charts/pools/values.yaml': `${base['charts/pools/values.yaml'] ?? ''}# a comment\n` });
    expect(result.changes).toEqual([]);
    expect(result.coverage.map((c) => c.state)).not.toContain('not-followed');
  });
});
