import { describe, expect, it } from 'vitest';
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
