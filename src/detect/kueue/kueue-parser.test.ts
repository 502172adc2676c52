import { describe, expect, it } from 'vitest';
import { match } from '../../../test/helpers/match.js';
import { kueueParser } from './kueue.js';
import { lineOf, parseKueue, queueYaml, yaml } from '../../../test/detect/fixtures.js';

describe('Kueue parser: versions and layout', () => {
  it('reads v1beta1 with spec.cohort', () => {
    const text = queueYaml({
      name: 'research',
      apiVersion: 'kueue.x-k8s.io/v1beta1',
      cohort: 'org',
      flavors: [['a100', 'nvidia.com/gpu', '4']],
    });
    const { decls, diagnostics } = parseKueue(text);
    expect(diagnostics).toEqual([]);
    expect(decls).toEqual([
      {
        file: 'queues.yaml',
        line: lineOf(text, 'nominalQuota'),
        kind: 'kueue-cluster-queue',
        name: 'research',
        gpuModel: null,
        gpus: 4,
        parts: [{ label: 'a100', resource: 'nvidia.com/gpu', gpus: 4, line: lineOf(text, 'nominalQuota') }],
        cohort: 'org',
      },
    ]);
  });

  it('reads v1beta2 with spec.cohortName', () => {
    const text = queueYaml({ name: 'research', cohort: 'org', flavors: [['a100', 'nvidia.com/gpu', '4']] });
    expect(text).toContain('cohortName: org');
    expect(parseKueue(text).decls[0]?.cohort).toBe('org');
  });

  it('leaves cohort out when the queue has none', () => {
    const text = queueYaml({ name: 'solo', flavors: [['f', 'nvidia.com/gpu', '1']] });
    expect(parseKueue(text).decls[0]).not.toHaveProperty('cohort');
  });

  it('sums nvidia.com/gpu over flavors and resource groups, and lists other GPU resources as parts only', () => {
    const text = yaml`
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ClusterQueue
      metadata:
        name: mixed
      spec:
        resourceGroups:
        - coveredResources: ["cpu", "nvidia.com/gpu"]
          flavors:
          - name: h100
            resources:
            - name: cpu
              nominalQuota: 64
            - name: nvidia.com/gpu
              nominalQuota: 8
          - name: a100
            resources:
            - name: cpu
              nominalQuota: 32
            - name: nvidia.com/gpu
              nominalQuota: "4"
        - coveredResources: ["nvidia.com/mig-1g.5gb", "nvidia.com/gpucores", "nvidia.com/roce_gdr"]
          flavors:
          - name: mig
            resources:
            - name: nvidia.com/mig-1g.5gb
              nominalQuota: 14
            - name: nvidia.com/gpucores
              nominalQuota: 300
            - name: nvidia.com/roce_gdr
              nominalQuota: 4
    `;
    const [decl] = parseKueue(text).decls;
    expect(decl?.gpus).toBe(12);
    expect(decl?.line).toBe(lineOf(text, 'nominalQuota: 8'));
    expect(decl?.parts.map((p) => [p.label, p.resource, p.gpus, p.line])).toEqual([
      ['h100', 'nvidia.com/gpu', 8, lineOf(text, 'nominalQuota: 8')],
      ['a100', 'nvidia.com/gpu', 4, lineOf(text, 'nominalQuota: "4"')],
      ['mig', 'nvidia.com/mig-1g.5gb', 14, lineOf(text, 'nominalQuota: 14')],
    ]);
  });

  it('counts MIG slices when the queue has no nvidia.com/gpu, and says so', () => {
    const text = queueYaml({
      name: 'mig',
      flavors: [
        ['a', 'nvidia.com/mig-3g.20gb', '2'],
        ['b', 'nvidia.com/mig-1g.5gb', '7'],
      ],
    });
    const { decls, diagnostics } = parseKueue(text);
    expect(decls[0]?.gpus).toBe(9);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'info', line: lineOf(text, 'nominalQuota') })]);
    expect(diagnostics[0]?.message).toContain('nvidia.com/mig-3g.20gb');
  });

  it('declares nothing for a queue without GPU resources', () => {
    const text = queueYaml({
      name: 'cpu-only',
      flavors: [
        ['f', 'cpu', '100'],
        ['g', 'nvidia.com/gpucores', '50'],
      ],
    });
    expect(parseKueue(text)).toMatchObject({ decls: [], diagnostics: [], unresolved: [] });
  });

  it('keeps a zero quota: a borrow-only queue declares 0 GPUs', () => {
    const text = queueYaml({ name: 'borrower', flavors: [['f', 'nvidia.com/gpu', '0']] });
    expect(parseKueue(text).decls.map((d) => d.gpus)).toEqual([0]);
  });

  it('passes over other kinds in the same stream and ClusterQueues of other API groups', () => {
    const text =
      yaml`
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: LocalQueue
      metadata: {name: lq, namespace: ns}
      spec: {clusterQueue: real}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: burn}
      spec:
        template:
          spec:
            containers:
            - name: c
              resources: {limits: {nvidia.com/gpu: "2"}}
      ---
      apiVersion: example.com/v1
      kind: ClusterQueue
      metadata: {name: imposter}
      spec:
        resourceGroups:
        - flavors: [{name: f, resources: [{name: nvidia.com/gpu, nominalQuota: 99}]}]
      ---
    ` + `\n${queueYaml({ name: 'real', flavors: [['f', 'nvidia.com/gpu', '3']] })}`;
    expect(parseKueue(text).decls.map((d) => [d.name, d.gpus])).toEqual([['real', 3]]);
  });

  it('reads an unknown kueue.x-k8s.io version with a warning rather than dropping it', () => {
    const text = queueYaml({ name: 'future', apiVersion: 'kueue.x-k8s.io/v1', flavors: [['f', 'nvidia.com/gpu', '5']] });
    const { decls, diagnostics } = parseKueue(text);
    expect(decls.map((d) => d.gpus)).toEqual([5]);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', line: 1 })]);
    expect(diagnostics[0]?.message).toContain('kueue.x-k8s.io/v1');
  });

  it('takes the GPU model from a ResourceFlavor node label in the same file', () => {
    const flavors = yaml`
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: h100}
      spec:
        nodeLabels:
          nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: l4}
      spec:
        nodeLabels:
          cloud.google.com/gke-accelerator: nvidia-l4
      ---
    `;
    const one = parseKueue(`${flavors}\n${queueYaml({ name: 'q', flavors: [['h100', 'nvidia.com/gpu', '8']] })}`);
    expect(one.decls[0]?.gpuModel).toBe('H100');
    const mixed = parseKueue(
      `${flavors}\n${queueYaml({
        name: 'q',
        flavors: [
          ['h100', 'nvidia.com/gpu', '8'],
          ['l4', 'nvidia.com/gpu', '2'],
        ],
      })}`,
    );
    expect(mixed.decls[0]?.gpuModel).toBeNull();
    const unlabelled = parseKueue(queueYaml({ name: 'q', flavors: [['h100', 'nvidia.com/gpu', '8']] }));
    expect(unlabelled.decls[0]?.gpuModel).toBeNull();
  });

  it('handles CRLF line endings', () => {
    const text = queueYaml({ name: 'win', flavors: [['f', 'nvidia.com/gpu', '2']] }).replace(/\n/g, '\r\n');
    const { decls } = parseKueue(text);
    expect(decls.map((d) => [d.gpus, d.line])).toEqual([[2, 12]]);
  });
});

describe('Kueue parser: quantities', () => {
  it.each([
    ['4', 4],
    ['"4"', 4],
    ["'4'", 4],
    ['4.0', 4],
    ['"2k"', 2000],
    ['1e1', 10],
  ])('nominalQuota %s is %d GPUs, without diagnostics', (quota, gpus) => {
    const { decls, diagnostics } = parseKueue(queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', quota]] }));
    expect(decls.map((d) => d.gpus)).toEqual([gpus]);
    expect(diagnostics).toEqual([]);
  });

  it('warns about a GPU count that is not a whole number, and keeps it as written', () => {
    const text = queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', '"500m"']] });
    const { decls, diagnostics } = parseKueue(text);
    expect(decls.map((d) => d.gpus)).toEqual([0.5]);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', line: lineOf(text, 'nominalQuota') })]);
    expect(diagnostics[0]?.message).toContain('500m');
  });

  it.each([
    ['"lots"', 'not a Kubernetes quantity'],
    ['-4', 'negative'],
    ['', 'no nominalQuota'],
  ])('does not count nominalQuota %j: warning, and the queue is unresolved', (quota, words) => {
    const text = queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', quota]] });
    const result = parseKueue(text);
    expect(result.decls).toEqual([]);
    expect(result.unresolved).toEqual([
      { file: 'queues.yaml', line: lineOf(text, 'nominalQuota'), kind: 'kueue-cluster-queue', name: 'q' },
    ]);
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', line: lineOf(text, 'nominalQuota') })]);
    expect(result.diagnostics[0]?.message).toContain(words);
  });
});

describe('Kueue parser: templates and malformed YAML', () => {
  it('names a template expression in a quota that parses as a string, and does not count it', () => {
    const text = queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', '"{{ .Values.gpus }}"']] });
    const result = parseKueue(text, 'charts/q.yaml');
    expect(result.decls).toEqual([]);
    expect(result.unresolved?.map((u) => u.name)).toEqual(['q']);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ file: 'charts/q.yaml', line: lineOf(text, 'nominalQuota'), severity: 'warning' });
    expect(result.diagnostics[0]?.message).toContain('{{ .Values.gpus }}');
  });

  it('does not let a template in one flavor pass for a partial total', () => {
    const text = queueYaml({
      name: 'q',
      flavors: [
        ['a', 'nvidia.com/gpu', '8'],
        ['b', 'nvidia.com/gpu', '${extra_gpus}'],
      ],
    });
    const result = parseKueue(text, 'q.yaml.tftpl');
    expect(result.decls).toEqual([]);
    expect(result.unresolved?.map((u) => u.name)).toEqual(['q']);
    expect(result.diagnostics.map((d) => [d.line, d.message.includes('${extra_gpus}')])).toEqual([[lineOf(text, '${extra_gpus}'), true]]);
  });

  it('scans the raw lines of a Helm template that is not YAML, flagging only GPU quotas', () => {
    const text = yaml`
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: ClusterQueue
      metadata:
        name: research
      spec:
        {{- if .Values.cohort }}
        cohort: {{ .Values.cohort }}
        {{- end }}
        resourceGroups:
        - coveredResources: ["cpu", "nvidia.com/gpu"]
          flavors:
          - name: default
            resources:
            - name: cpu
              nominalQuota: {{ .Values.cpu }}
            - name: "nvidia.com/gpu"
              nominalQuota: {{ .Values.gpus | int }}
    `;
    const result = parseKueue(text, 'charts/templates/cq.yaml');
    expect(result.decls).toEqual([]);
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', line: lineOf(text, '.Values.gpus') })]);
    expect(result.diagnostics[0]?.message).toContain('{{ .Values.gpus | int }}');
    // The literal name is kept, so a comparison does not take the queue for deleted.
    expect(result.unresolved).toEqual([{ file: 'charts/templates/cq.yaml', line: 2, kind: 'kueue-cluster-queue', name: 'research' }]);
  });

  it('reports malformed YAML as an error with file and line, never a throw', () => {
    const text = yaml`
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ClusterQueue
      metadata:
        name: broken
      spec:
        resourceGroups:
        - flavors: [{name: f, resources: [{name: nvidia.com/gpu, nominalQuota: 4}]
        - coveredResources: ["cpu"]
    `;
    const result = parseKueue(text, 'clusters/prod/queues.yaml');
    expect(result.decls).toEqual([]);
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d).toMatchObject({ file: 'clusters/prod/queues.yaml', severity: 'error' });
    expect(d?.line).toBeGreaterThanOrEqual(lineOf(text, '- flavors'));
    expect(d?.line).toBeLessThanOrEqual(text.split('\n').length);
    expect(d?.message).toMatch(/YAML error in ClusterQueue broken/);
    expect(result.unresolved?.map((u) => u.name)).toEqual(['broken']);
  });

  it('points at the offending line', () => {
    const text = `${queueYaml({ name: 'q', flavors: [['f', 'nvidia.com/gpu', '4']] })}    bad: : :\n`;
    const result = parseKueue(text);
    expect(result.diagnostics.map((d) => [d.severity, d.line])).toEqual([['error', lineOf(text, 'bad: : :')]]);
    expect(result.decls).toEqual([]);
  });

  it('ignores YAML errors in documents that hold no ClusterQueue', () => {
    const text = `kind: ConfigMap\ndata: [oops\n---\n${queueYaml({ name: 'ok', flavors: [['f', 'nvidia.com/gpu', '1']] })}`;
    const result = parseKueue(text);
    expect(result.decls.map((d) => d.name)).toEqual(['ok']);
    expect(result.diagnostics).toEqual([]);
  });
});

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
