import { describe, expect, it } from 'vitest';
import { kueueParser } from './kueue.js';
import { corpusFiles } from '../../../test/detect/corpus.js';

/**
 * What SOURCES.md says each file declares, as the parser should read it. `queues` lists the
 * ClusterQueues with a countable GPU quota; `templated` the quota lines it must flag instead
 * of counting (line, and the expression the message must name).
 */
interface Expectation {
  queues: { name: string; gpus: number; cohort?: string; parts?: [flavor: string, resource: string, gpus: number][] }[];
  templated?: { line: number; expression: string }[];
}

const EXPECTED: Record<string, Expectation> = {
  // "nominalQuota nvidia.com/gpu 9 on flavor default-flavor (v1beta2, multi-doc …)"
  'kueue/kueue-provisioning-setup.yaml': {
    queues: [{ name: 'cluster-queue', gpus: 9, parts: [['default-flavor', 'nvidia.com/gpu', 9]] }],
  },
  // "nvidia.com/gpu 20 (+ total-gpucores 600, total-gpumem 20480)"; the Deployment is a workload
  'kueue/kueue-hami-vgpu.yaml': {
    queues: [{ name: 'hami-queue', gpus: 20, parts: [['hami-flavor', 'nvidia.com/gpu', 20]] }],
  },
  // "ClusterQueue embedded as a string inside a ConfigMap; nominalQuota: {{ .nominalQuota }}"
  'kueue/kueue-populator-helm-setup-hook.yaml': {
    queues: [],
    templated: [{ line: 61, expression: '{{ .nominalQuota }}' }],
  },
  // Helm values: no ClusterQueue object, nothing to report.
  'kueue/kueue-populator-helm-values.yaml': { queues: [] },
  // "nominalQuota nvidia.com/gpu 6 on flavor default-flavor (v1beta1)"
  'kueue/gke-samples-mix-train-inference-cq.yaml': {
    queues: [{ name: 'cluster-queue', gpus: 6, parts: [['default-flavor', 'nvidia.com/gpu', 6]] }],
  },
  // "Go text/template ClusterQueue: nominalQuota nvidia.com/gpu {{.gpu}}"; cpu/memory/pods are not GPUs
  'kueue/knavigator-cq-gotemplate.yaml': {
    queues: [],
    templated: [{ line: 22, expression: '{{.gpu}}' }],
  },
  // "team1 (cohort organization): '2' on nvidia-h100-80gb and '8' on nvidia-a100-80gb"
  'kueue/odh-workshop-team1-cq.yaml': {
    queues: [
      {
        name: 'team1',
        gpus: 10,
        cohort: 'organization',
        parts: [
          ['nvidia-h100-80gb', 'nvidia.com/gpu', 2],
          ['nvidia-a100-80gb', 'nvidia.com/gpu', 8],
        ],
      },
    ],
  },
  // "team2 (cohort organization): '6' on nvidia-h100-80gb and '4' on nvidia-a100-80gb"
  'kueue/odh-workshop-team2-cq.yaml': {
    queues: [
      {
        name: 'team2',
        gpus: 10,
        cohort: 'organization',
        parts: [
          ['nvidia-h100-80gb', 'nvidia.com/gpu', 6],
          ['nvidia-a100-80gb', 'nvidia.com/gpu', 4],
        ],
      },
    ],
  },
  // "separate resourceGroup for nvidia.com/gpu with nominalQuota "4" on flavor gpu-flavor"
  'kueue/odh-dreambooth-separate-gpu-group-cq.yaml': {
    queues: [{ name: 'distributed-cq', gpus: 4, parts: [['gpu-flavor', 'nvidia.com/gpu', 4]] }],
  },
  // "nominalQuota nvidia.com/gpu ${num_gpus} (bare ${} interpolation)"
  'kueue/cluster-toolkit-a3mega-kueue.yaml.tftpl': {
    queues: [],
    templated: [{ line: 51, expression: '${num_gpus}' }],
  },
  // "ClusterQueue inside a 'kubectl apply -f- << EOF' heredoc: team1-cluster-queue nominalQuota
  // nvidia.com/gpu 16 (cohort default-cohort) … plus nvidia.com/roce_gdr 4" (a NIC, not a GPU)
  'kueue/mlbatch-team-setup-heredoc.md': {
    queues: [
      {
        name: 'team1-cluster-queue',
        gpus: 16,
        cohort: 'default-cohort',
        parts: [['default-flavor', 'nvidia.com/gpu', 16]],
      },
    ],
  },
  // "nominalQuota COMPUTED as {{ mul (int $quota) (int $.Values.nodes.count) | quote }}"; both
  // branches of the template's if/else are quota lines.
  'kueue/azure-aiinfra-helm-clusterqueue-computed.yaml': {
    queues: [],
    templated: [
      { line: 21, expression: '{{ mul (int $value) (int $.Values.nodes.count) }}' },
      { line: 24, expression: '{{ mul (int $quota) (int $.Values.nodes.count) | quote }}' },
    ],
  },
  // Helm values: no ClusterQueue object, nothing to report.
  'kueue/azure-aiinfra-helm-values.yaml': { queues: [] },
  // "per-model GPU resource names nvidia.com/gpu-a100 (8), gpu-v100 (16), gpu-t4 (32) plus
  // virtual gpu_credits 500": with no nvidia.com/gpu, the per-model quotas are the GPUs.
  'kueue/kueue-docs-gpu-credits-multi-resourcegroup-excerpt.md': {
    queues: [
      {
        name: 'team-cluster-queue',
        gpus: 56,
        parts: [
          ['a100', 'nvidia.com/gpu-a100', 8],
          ['v100', 'nvidia.com/gpu-v100', 16],
          ['t4', 'nvidia.com/gpu-t4', 32],
        ],
      },
    ],
  },
};

const files = corpusFiles('kueue');

describe('Kueue parser on the corpus', () => {
  it('has an expectation for every corpus file and a file for every expectation', () => {
    expect(files.map((f) => f.path).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files.map((f) => [f.path, f] as const))('%s', (path, file) => {
    const expected = EXPECTED[path];
    if (!expected) throw new Error(`no expectation for ${path}`);
    const result = kueueParser.mightContain(path, file.text)
      ? kueueParser.parse(path, file.text)
      : { decls: [], diagnostics: [], unresolved: [] };

    expect(result.decls.map((d) => ({ name: d.name, gpus: d.gpus, cohort: d.cohort }))).toEqual(
      expected.queues.map((q) => ({ name: q.name, gpus: q.gpus, cohort: q.cohort })),
    );
    for (const q of expected.queues) {
      const decl = result.decls.find((d) => d.name === q.name);
      expect(decl?.kind).toBe('kueue-cluster-queue');
      if (q.parts) expect(decl?.parts.map((p) => [p.label, p.resource, p.gpus])).toEqual(q.parts);
      // The decl points at its first GPU quota line.
      expect(decl?.line).toBe(decl?.parts[0]?.line);
      expect(file.text.split('\n')[(decl?.line ?? 0) - 1]).toMatch(/nominalQuota/);
    }

    const templated = expected.templated ?? [];
    for (const t of templated) {
      const hit = result.diagnostics.find((d) => d.line === t.line && d.message.includes(t.expression));
      expect(hit, `diagnostic naming ${t.expression} at line ${t.line}`).toBeDefined();
      expect(hit?.severity).toBe('warning');
    }
    // No YAML errors for readable files and templates alike: templates are warnings, not failures.
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    if (templated.length === 0) {
      expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    }
  });
});
