import type { RealCase } from './real-case.js';

/**
 * Real cases (real-cases.ts) on Kueue Cohorts: a Cohort's `spec.resourceGroups` holds quota
 * written as a ClusterQueue's, which the ClusterQueues of its tree borrow (Kueue, "Cohort",
 * Configuring Quotas). The fixture is KueueViz's example set: flavors, the ClusterQueues of
 * the cohort `ai-for-humanity-foundation`, and a tree of Cohorts with empty specs.
 */
const COHORTS = '01.5-cohorts.yaml';
const RESEARCH = 'name: research\nspec:\n  parentName: organization\n';
const gpuQuota = (indent: string, gpus: string) =>
  [
    `${indent}resourceGroups:`,
    `${indent}- coveredResources: ["nvidia.com/gpu"]`,
    `${indent}  flavors:`,
    `${indent}  - name: "gpu"`,
    `${indent}    resources:`,
    `${indent}    - name: "nvidia.com/gpu"`,
    `${indent}      nominalQuota: ${gpus}`,
    '',
  ].join('\n');

export const KUEUE_COHORT_CASES: readonly RealCase[] = [
  // kubernetes-sigs/kueue cmd/kueueviz/examples: Cohorts with no quota, queues of cpu, memory and a domainless `gpu`.
  {
    id: 'kueueviz examples: Cohort research given 16 nvidia.com/gpu on flavor gpu',
    target: 'kueue/kueueviz-examples',
    edits: [[COHORTS, RESEARCH, `${RESEARCH}${gpuQuota('  ', '16')}`]],
    expect: [['kueue-cohort', 'research', 0, 16]],
    why: "a Cohort's nominalQuota is GPUs its tree's queues may borrow: 0 → 16",
  },
  {
    id: 'kueueviz examples: Cohort ai-for-humanity-foundation spec {} → 8 nvidia.com/gpu',
    target: 'kueue/kueueviz-examples',
    edits: [[COHORTS, 'name: ai-for-humanity-foundation\nspec: {}\n', `name: ai-for-humanity-foundation\nspec:\n${gpuQuota('  ', '8')}`]],
    expect: [['kueue-cohort', 'ai-for-humanity-foundation', 0, 8]],
    why: 'the cohort of the three example ClusterQueues gets a shared quota of 8 GPUs they all may borrow',
  },
  {
    id: 'kueueviz examples: Cohort research quota as the string "4" in v1alpha1 with parent',
    target: 'kueue/kueueviz-examples',
    edits: [
      [
        COHORTS,
        `apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  ${RESEARCH}`,
        `apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort\nmetadata:\n  name: research\nspec:\n  parent: organization\n${gpuQuota('  ', '"4"')}`,
      ],
    ],
    expect: [['kueue-cohort', 'research', 0, 4]],
    why: 'Kueue 0.9 to 0.12 served Cohorts as v1alpha1 (`parent` for the parent); the quoted quantity "4" is 4 GPUs',
  },
  {
    id: 'kueueviz examples: Cohort engineering moved under research (negative control)',
    target: 'kueue/kueueviz-examples',
    edits: [[COHORTS, 'name: engineering\nspec:\n  parentName: organization', 'name: engineering\nspec:\n  parentName: research']],
    expect: [],
    why: 'the tree changes shape, and no Cohort or queue holds a GPU quota',
  },
  {
    id: 'kueueviz examples: Cohort organization given cpu 64 and fair-sharing weight (negative control)',
    target: 'kueue/kueueviz-examples',
    edits: [
      [
        COHORTS,
        'name: organization\nspec: {}\n',
        'name: organization\nspec:\n  fairSharing:\n    weight: "2"\n  resourceGroups:\n  - coveredResources: ["cpu"]\n    flavors:\n    - name: "default-flavor"\n      resources:\n      - name: "cpu"\n        nominalQuota: 64\n',
      ],
    ],
    expect: [],
    why: 'a CPU quota and a fair-sharing weight add no GPU',
  },
];
