import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { kueueParser } from './kueue.js';
import { lineOf, parseKueue, queueYaml } from '../../../test/detect/fixtures.js';

describe('Kueue parser: cheap check and embedded YAML', () => {
  const queue = queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', '2']] });

  it.each([
    ['q.yaml', true],
    ['q.yml', true],
    ['q.YAML', true],
    ['q.json', true],
    ['templates/q.tpl', true],
    ['q.yaml.tftpl', true],
    ['README.md', true],
    ['setup.sh', true],
    ['main.tf', true],
    ['q.txt', false],
    ['q.py', false],
    ['Makefile', false],
  ])('mightContain(%s) is %s for a ClusterQueue text', (path, expected) => {
    expect(kueueParser.mightContain(path, queue)).toBe(expected);
  });

  it('rejects YAML that never mentions ClusterQueue', () => {
    expect(kueueParser.mightContain('q.yaml', 'kind: ResourceFlavor\n')).toBe(false);
  });

  it("reads a ```yaml fence in Markdown with the file's line numbers, and ignores other fences", () => {
    const text = ['# Queues', '', '```sh', 'echo ClusterQueue', '```', '', '```yaml', queue.trimEnd(), '```', ''].join('\n');
    const { decls } = parseKueue(text, 'docs/queues.md');
    expect(decls.map((d) => [d.name, d.gpus, d.line])).toEqual([['q', 2, lineOf(text, 'nominalQuota')]]);
  });

  it('reads a heredoc in a shell script', () => {
    const text = ['#!/bin/sh', 'set -e', 'cat <<EOF | kubectl apply -f -', queue.trimEnd(), 'EOF', 'echo done', ''].join('\n');
    const { decls } = parseKueue(text, 'setup.sh');
    expect(decls.map((d) => [d.name, d.gpus, d.line])).toEqual([['q', 2, lineOf(text, 'nominalQuota')]]);
  });

  it('names ${} interpolation in a Terraform heredoc', () => {
    const body = queueYaml({ name: 'tf-q', flavors: [['f', 'nvidia.com/gpu', '${var.gpus}']] })
      .trimEnd()
      .replace(/^/gm, '    ');
    const text = ['resource "kubectl_manifest" "cq" {', '  yaml_body = <<-YAML', body, '  YAML', '}', ''].join('\n');
    const result = parseKueue(text, 'main.tf');
    expect(result.decls).toEqual([]);
    expect(result.unresolved?.map((u) => u.name)).toEqual(['tf-q']);
    expect(result.diagnostics.map((d) => d.line)).toEqual([lineOf(text, 'nominalQuota')]);
    expect(result.diagnostics[0]?.message).toContain('${var.gpus}');
  });

  it('makes a malformed example in Markdown a warning, not an error', () => {
    const text = ['```yaml', 'kind: ClusterQueue', 'metadata:', '  name: doc', 'spec: [', '```', ''].join('\n');
    const result = parseKueue(text, 'README.md');
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });
});

describe('Kueue parser: borrowing and lending limits', () => {
  const queue = (limits: string[][]) =>
    [
      'apiVersion: kueue.x-k8s.io/v1beta2',
      'kind: ClusterQueue',
      'metadata:',
      '  name: team-a',
      'spec:',
      '  cohortName: org',
      '  resourceGroups:',
      '  - coveredResources: ["nvidia.com/gpu"]',
      '    flavors:',
      ...limits.flatMap(([flavor, ...extra], i) => [
        `    - name: ${flavor ?? `f${i}`}`,
        '      resources:',
        '      - name: nvidia.com/gpu',
        '        nominalQuota: 4',
        ...extra.map((l) => `        ${l}`),
      ]),
    ].join('\n');

  it('reads the limits of each flavor and sums them when every counted flavor sets one', () => {
    const { decls, diagnostics } = kueueParser.parse(
      'q.yaml',
      queue([
        ['a100', 'borrowingLimit: 2', 'lendingLimit: "1"'],
        ['h100', 'borrowingLimit: 3', 'lendingLimit: 0'],
      ]),
    );
    expect(diagnostics).toEqual([]);
    expect(decls[0]).toMatchObject({ cohort: 'org', gpus: 8, borrowingLimit: 5, lendingLimit: 1 });
    expect(decls[0]?.parts.map((p) => [p.label, p.borrowingLimit, p.lendingLimit])).toEqual([
      ['a100', 2, 1],
      ['h100', 3, 0],
    ]);
  });

  it('leaves the queue unlimited when one flavor sets no limit', () => {
    const { decls } = kueueParser.parse('q.yaml', queue([['a100', 'borrowingLimit: 2'], ['h100']]));
    expect(decls[0]?.borrowingLimit).toBeUndefined();
    expect(decls[0]?.lendingLimit).toBeUndefined();
  });

  it('reports a limit it cannot read, with its line, and does not narrow borrowing by it', () => {
    const text = queue([['a100', 'borrowingLimit: "{{ .Values.borrow }}"', 'lendingLimit: -1']]);
    const { decls, diagnostics } = kueueParser.parse('q.yaml', text);
    expect(decls[0]?.borrowingLimit).toBeUndefined();
    expect(diagnostics.map((d) => [d.line, d.severity])).toEqual([
      [text.split('\n').findIndex((l) => l.includes('borrowingLimit')) + 1, 'warning'],
      [text.split('\n').findIndex((l) => l.includes('lendingLimit')) + 1, 'warning'],
    ]);
    expect(diagnostics[0]?.message).toContain('{{ .Values.borrow }}');
  });
});

describe('DRA resources in a ClusterQueue', () => {
  const queue = (resource: string, quota: string) => `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: dra
spec:
  resourceGroups:
    - coveredResources: ["cpu", "${resource}"]
      flavors:
        - name: default
          resources:
            - name: cpu
              nominalQuota: 10
            - name: "${resource}"
              nominalQuota: ${quota}
`;

  it.each([
    ['gpu.nvidia.com', '8'],
    ['gpu.memory', '640Gi'],
  ])('%s is not counted, and a warning at its quota says so', (resource, quota) => {
    const r = kueueParser.parse('q.yaml', queue(resource, quota));
    expect(r.decls).toEqual([]);
    expect(r.diagnostics).toEqual([
      {
        file: 'q.yaml',
        line: 14,
        severity: 'warning',
        message: `ClusterQueue dra, flavor default: ${resource} carries no domain, so pods do not request it as a resource (they request e.g. nvidia.com/gpu): it is a DRA device class or device capacity that Kueue maps, or a name no workload uses; its quota ${quota} is not counted as GPUs`,
      },
    ]);
  });

  it.each([['rdma/ib'], ['gpu_credits'], ['hugepages-2Mi'], ['ephemeral-storage']])(
    '%s is neither counted nor warned about',
    (resource) => {
      expect(kueueParser.parse('q.yaml', queue(resource, '4'))).toMatchObject({ decls: [], diagnostics: [], unresolved: [] });
    },
  );
});

describe('a MultiKueue manager queue', () => {
  // As rrbanda/GPUaaS-RHACM's manager cluster declares it: the check dispatches to worker clusters.
  const manager = (strategy: boolean) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: gpu-cluster-queue
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["nvidia.com/gpu"]
    flavors:
    - name: default-flavor
      resources:
      - name: "nvidia.com/gpu"
        nominalQuota: 4
${strategy ? '  admissionChecksStrategy:\n    admissionChecks:\n    - name: multikueue-gpu' : '  admissionChecks:\n  - multikueue-gpu'}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: AdmissionCheck
metadata:
  name: multikueue-gpu
spec:
  controllerName: kueue.x-k8s.io/multikueue
`;

  it.each([false, true])('is counted with a note that its quota caps dispatch, not hardware (strategy form: %s)', (strategy) => {
    const { decls, diagnostics } = kueueParser.parse('q.yaml', manager(strategy));
    expect(decls.map((d) => [d.name, d.gpus])).toEqual([['gpu-cluster-queue', 4]]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        line: 13,
        severity: 'info',
        message: match.stringContaining('through the MultiKueue admission check multikueue-gpu'),
      }),
    ]);
  });

  it('gets no note when its admission check is another controller', () => {
    const other = manager(false).replace('kueue.x-k8s.io/multikueue', 'kueue.x-k8s.io/provisioning-request');
    expect(kueueParser.parse('q.yaml', other).diagnostics).toEqual([]);
  });
});
