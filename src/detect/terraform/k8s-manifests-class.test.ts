import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../detect-changes.js';
import { detectPr } from '../../../test/detect/real-fixtures.js';

/**
 * A GKE ComputeClass that creates GPU node pools declares no count: its reader names it not
 * followed, fingerprinted by its GPU priorities. Written in Terraform, whether as an HCL object
 * (`kubernetes_manifest`), through `yamlencode` (`kubectl_manifest`) or as YAML in a heredoc, it
 * is read the same: an edit beside the priorities is no change, a change to them is not followed.
 */

interface Spec {
  gpus: number;
  machine: string;
  migration: boolean;
  label: string | null;
  cpuPriority: boolean;
  creation: boolean;
}

const BASE: Spec = { gpus: 2, machine: 'g2-standard-24', migration: true, label: null, cpuPriority: false, creation: true };

/** The class as a plain object: what every form writes. */
function classObject(s: Spec): Record<string, unknown> {
  const priorities: unknown[] = [
    { machineType: s.machine, gpu: { type: 'nvidia-l4', count: s.gpus, driverVersion: 'latest' }, spot: true },
    { machineType: s.machine, gpu: { type: 'nvidia-l4', count: s.gpus, driverVersion: 'latest' } },
  ];
  if (s.cpuPriority) priorities.push({ machineFamily: 'n2', minCores: 8 });
  return {
    apiVersion: 'cloud.google.com/v1',
    kind: 'ComputeClass',
    metadata: { name: 'gpu-l4', ...(s.label === null ? {} : { labels: { team: s.label } }) },
    spec: { activeMigration: { optimizeRulePriority: s.migration }, nodePoolAutoCreation: { enabled: s.creation }, priorities },
  };
}

/** An HCL expression of a plain value; keys written `k = v` or, as JSON-minded authors do, `"k": v`. */
function hcl(v: unknown, colon: boolean, indent = '  '): string {
  if (Array.isArray(v)) return `[\n${v.map((x) => `${indent}  ${hcl(x, colon, `${indent}  `)},\n`).join('')}${indent}]`;
  if (v !== null && typeof v === 'object') {
    const pairs = Object.entries(v).map(([k, x]) => `${indent}  ${colon ? `"${k}":` : `"${k}" =`} ${hcl(x, colon, `${indent}  `)}\n`);
    return `{\n${pairs.join('')}${indent}}`;
  }
  return JSON.stringify(v);
}

function yaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) return v.map((x) => `\n${indent}- ${yaml(x, `${indent}  `).trimStart()}`).join('');
  if (v !== null && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `\n${indent}${k}:${typeof x === 'object' && x !== null ? yaml(x, `${indent}  `) : ` ${JSON.stringify(x)}`}`)
      .join('');
  return JSON.stringify(v);
}

const FORMS = {
  'kubernetes_manifest, HCL object': (s: Spec) =>
    `resource "kubernetes_manifest" "gpu_l4" {\n  manifest = ${hcl(classObject(s), false)}\n}\n`,
  'kubernetes_manifest, JSON-style keys': (s: Spec) =>
    `resource "kubernetes_manifest" "gpu_l4" {\n  manifest = ${hcl(classObject(s), true)}\n}\n`,
  'kubectl_manifest, yamlencode': (s: Spec) =>
    `resource "kubectl_manifest" "gpu_l4" {\n  yaml_body = yamlencode(${hcl(classObject(s), false)})\n}\n`,
  'kubectl_manifest, heredoc': (s: Spec) =>
    `resource "kubectl_manifest" "gpu_l4" {\n  yaml_body = <<-YAML${yaml(classObject(s), '    ')}\n  YAML\n}\n`,
};

const EDITS_BESIDE: [string, Partial<Spec>][] = [
  ['active migration off', { migration: false }],
  ['a label added', { label: 'ml' }],
  ['a CPU priority added', { cpuPriority: true }],
];
const EDITS_OF_GPUS: [string, Partial<Spec>][] = [
  ['2 → 4 GPUs per node', { gpus: 4 }],
  ['a larger machine', { machine: 'g2-standard-48' }],
  ['node pool creation turned on', {}],
];

const flagged = (r: DetectedChanges) =>
  r.coverage.some((c) => c.state === 'not-followed') || r.diagnostics.some((d) => d.severity === 'error');
const FILE = 'gke/compute-classes.tf';

describe('a ComputeClass that creates GPU node pools, written in Terraform', () => {
  const forms = Object.entries(FORMS);
  it.each(forms.flatMap(([form]) => EDITS_BESIDE.map(([edit]) => [form, edit])))('%s: %s is no change', async (form, edit) => {
    const write = FORMS[form as keyof typeof FORMS];
    const change = EDITS_BESIDE.find(([e]) => e === edit)?.[1] ?? {};
    const r = await detectPr({ [FILE]: write(BASE) }, { [FILE]: write({ ...BASE, ...change }) });
    expect(r.changes).toEqual([]);
    expect(flagged(r), JSON.stringify(r.coverage)).toBe(false);
  });

  it.each(forms.flatMap(([form]) => EDITS_OF_GPUS.map(([edit]) => [form, edit])))('%s: %s is not followed', async (form, edit) => {
    const write = FORMS[form as keyof typeof FORMS];
    const change = EDITS_OF_GPUS.find(([e]) => e === edit)?.[1] ?? {};
    const before = edit.startsWith('node pool creation') ? { ...BASE, creation: false } : BASE;
    const r = await detectPr({ [FILE]: write(before) }, { [FILE]: write({ ...BASE, ...change }) });
    expect(r.changes).toEqual([]);
    expect(flagged(r)).toBe(true);
  });
});
