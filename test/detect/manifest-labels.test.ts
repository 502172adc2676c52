import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountSignals } from '../../src/detect/kit/signal-scan/account.js';

/**
 * A Terraform manifest resource labelled for GPUs (`resource "kubectl_manifest" "gpu_flavor_1"`)
 * is named as its object is: where the body names GPUs and each of those is accounted for, the
 * label is a name; where the body names none, or one nothing accounts for, the label is still a
 * GPU name nothing accounts for. Generated over labels, resource types and manifest spellings.
 */

const FLAVOR =
  'apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata:\n  name: gpu\nspec:\n  nodeLabels:\n    nvidia.com/gpu.present: "true"\n';
const PLAIN = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  replicas: "4"\n';
const OPAQUE = 'apiVersion: example.com/v1\nkind: Pool\nmetadata:\n  name: pool\nspec:\n  instanceType: p4d.24xlarge\n  size: 4\n';

const SPELLS: Record<string, (type: string, label: string, yaml: string) => string> = {
  heredoc: (type, label, yaml) =>
    `resource "${type}" "${label}" {\n  ${type === 'kubectl_manifest' ? 'yaml_body' : 'manifest'} = ${type === 'kubectl_manifest' ? '' : 'yamldecode('}<<-YAML\n${yaml.replace(/^/gm, '    ').trimEnd()}\n  YAML\n${type === 'kubectl_manifest' ? '' : '  )\n'}}\n`,
};

const arb = fc.record({
  label: fc.constantFrom('gpu_flavor_1', 'gpu-pool', 'nvidia_gpu_flavor', 'h100_gpus'),
  type: fc.constantFrom('kubectl_manifest', 'kubernetes_manifest'),
  spell: fc.constantFrom(...Object.keys(SPELLS)),
});

const left = (text: string) =>
  accountSignals('infra/k8s.tf', text)
    .signals.filter((s) => s.by === null)
    .map((s) => s.token);

describe('a manifest resource labelled for GPUs', () => {
  it('is a name when its body names GPUs, every one accounted for', () => {
    fc.assert(
      fc.property(arb, ({ label, type, spell }) => {
        expect(left((SPELLS[spell] as (t: string, l: string, y: string) => string)(type, label, FLAVOR))).toEqual([]);
      }),
      { numRuns: 24 },
    );
  });

  it('stays a GPU name nothing accounts for when the body names none, or one nothing accounts for', () => {
    fc.assert(
      fc.property(arb, fc.constantFrom(PLAIN, OPAQUE), ({ label, type, spell }, yaml) => {
        const found = left((SPELLS[spell] as (t: string, l: string, y: string) => string)(type, label, yaml));
        expect(found).toContain(label);
      }),
      { numRuns: 24 },
    );
  });

  it('is judged only for manifest resources: another resource labelled for GPUs stays a signal', () => {
    expect(
      left(`resource "aws_autoscaling_group" "gpu_workers" {\n  name = "workers"\n  tags = { "nvidia.com/gpu.present" = "true" }\n}\n`),
    ).toContain('gpu_workers');
  });
});
