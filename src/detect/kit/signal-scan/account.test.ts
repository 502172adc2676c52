import { describe, expect, it } from 'vitest';
import { accountSignals } from './account.js';

const FLAVOR = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata:
  name: gpu
spec:
  nodeLabels:
    nvidia.com/gpu.present: "true"
  tolerations:
  - key: nvidia.com/gpu
    operator: Exists
    effect: NoSchedule
`;

describe('accountSignals', () => {
  it('reads a file with CRLF line ends as with LF ones: the same names, lines and contexts', () => {
    const lf = accountSignals('flavor.yaml', FLAVOR).signals.map((s) => [s.token, s.line, s.by]);
    expect(lf).toEqual([
      ['nvidia.com/gpu.present', 7, 'label'],
      ['nvidia.com/gpu', 9, 'scheduling'],
    ]);
    expect(accountSignals('flavor.yaml', FLAVOR.replace(/\n/g, '\r\n')).signals.map((s) => [s.token, s.line, s.by])).toEqual(lf);
  });

  it('reads a file with no extension holding objects as YAML: a label is a label', () => {
    expect(accountSignals('kueue/gpu-flavor', FLAVOR).signals.map((s) => s.by)).toEqual(['label', 'scheduling']);
  });
});

describe('accountSignals on YAML by its parsed structure', () => {
  const at = (path: string, text: string) => accountSignals(path, text).signals.map((s) => [s.token, s.line, s.by]);

  it('reads a flow mapping as the block one: a label, a toleration, a request', () => {
    const flow = `{kind: ResourceFlavor, spec: {nodeLabels: {nvidia.com/gpu.present: "true"},\n  tolerations: [{key: nvidia.com/gpu, operator: Exists}]}}\n---\n{kind: Pod, spec: {containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]}}\n`;
    expect(at('flavor.yaml', flow)).toEqual([
      ['nvidia.com/gpu.present', 1, 'label'],
      ['nvidia.com/gpu', 2, 'scheduling'],
      ['nvidia.com/gpu', 4, 'request'],
    ]);
  });

  it('a key its mapping sets again is overridden, at any depth and in flow style; the last one is a signal', () => {
    for (const text of [
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 0\n    cpu: 4\n    nvidia.com/gpu: 8\n',
      'kind: NodePool\nspec:\n  limits: {nvidia.com/gpu: 0,\n    cpu: 4,\n    "nvidia.com/gpu": 8}\n',
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 8\n  cpu: 4\nspec:\n  limits:\n    nvidia.com/gpu: 8\n',
    ]) {
      const signals = at('pool.yaml', text);
      expect(
        signals.map(([, , by]) => by),
        text,
      ).toEqual(['overridden', null]);
    }
  });

  it('what does not parse, or is a template, is read by indentation as before', () => {
    const template =
      'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: {{ .Values.gpus }}\n  labels:\n    nvidia.com/gpu.present: "true"\n';
    expect(at('templates/pool.yaml', template)).toEqual([
      ['nvidia.com/gpu', 4, null],
      ['nvidia.com/gpu.present', 6, 'label'],
    ]);
    const broken = 'kind: NodePool\nspec:\n  limits:\n    nvidia.com/gpu: 8\n   bad: [\n  labels:\n    nvidia.com/gpu.present: "true"\n';
    expect(at('pool.yaml', broken).map(([, , by]) => by)).toEqual([null, 'label']);
  });

  it('a heredoc of YAML in HCL is read by its parsed structure too', () => {
    const hcl =
      'resource "kubectl_manifest" "x" {\n  yaml_body = <<EOT\nkind: Pod\nspec: {containers: [{resources: {limits: {nvidia.com/gpu: 1}}}]}\nEOT\n}\n';
    expect(at('main.tf', hcl)).toEqual([['nvidia.com/gpu', 4, 'request']]);
  });
});
