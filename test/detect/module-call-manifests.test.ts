import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from '../../src/detect/detect-changes.js';
import { changeRows, detectPr } from './real-fixtures.js';
import type { Tree } from './real-fixtures.js';

/*
 * Kubernetes objects a local module declares (kubernetes_manifest, kubectl_manifest, a rendered
 * template) are sized by what its call gives it. Generated over the ways a module writes such an
 * object and where the module sits: a changed call is counted through the module, or not
 * followed; a module change that comes with a changed call is still counted; an unrelated input
 * changed is no change. Never a silent "no change" for a change of size.
 */

const QUEUE_YAML = (quota: string) => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${quota}
`;
const QUEUE_HCL = (quota: string) => `{
    apiVersion = "kueue.x-k8s.io/v1beta1"
    kind       = "ClusterQueue"
    metadata   = { name = "research" }
    spec = {
      namespaceSelector = {}
      resourceGroups = [{
        coveredResources = ["nvidia.com/gpu"]
        flavors = [{ name = "a100", resources = [{ name = "nvidia.com/gpu", nominalQuota = ${quota} }] }]
      }]
    }
  }`;
const heredoc = (quota: string) =>
  `<<-YAML\n${QUEUE_YAML(quota)
    .split('\n')
    .map((l) => (l === '' ? l : `    ${l}`))
    .join('\n')}  YAML`;

interface Shape {
  id: string;
  /** The module's files, the quota written as `q` (a literal or a reference to `var.gpus`). */
  files: (q: string) => Record<string, string>;
  /** The quota as the module reads it from its variable. */
  fromVariable: string;
  /** Whether the readers count it through the call (else: not followed). */
  counted: boolean;
}

const SHAPES: Shape[] = [
  {
    id: 'kubernetes_manifest object',
    files: (q) => ({ 'main.tf': `resource "kubernetes_manifest" "q" {\n  manifest = ${QUEUE_HCL(q)}\n}\n` }),
    fromVariable: 'var.gpus',
    counted: true,
  },
  {
    id: 'kubectl_manifest yamlencode',
    files: (q) => ({ 'main.tf': `resource "kubectl_manifest" "q" {\n  yaml_body = yamlencode(${QUEUE_HCL(q)})\n}\n` }),
    fromVariable: 'var.gpus',
    counted: true,
  },
  {
    id: 'kubectl_manifest templatefile',
    files: (q) => ({
      'main.tf': `resource "kubectl_manifest" "q" {\n  yaml_body = templatefile("\${path.module}/manifests/q.yaml.tftpl", { gpus = var.gpus })\n}\n`,
      'manifests/q.yaml.tftpl': QUEUE_YAML(q),
    }),
    fromVariable: '${gpus}',
    counted: true,
  },
  {
    id: 'kubernetes_manifest yamldecode(templatefile)',
    files: (q) => ({
      'main.tf': `resource "kubernetes_manifest" "q" {\n  manifest = yamldecode(templatefile("\${path.module}/q.tftpl", { gpus = var.gpus }))\n}\n`,
      'q.tftpl': QUEUE_YAML(q),
    }),
    fromVariable: '${gpus}',
    counted: true,
  },
  {
    id: 'kubectl_manifest heredoc',
    files: (q) => ({ 'main.tf': `resource "kubectl_manifest" "q" {\n  yaml_body = ${heredoc(q)}\n}\n` }),
    fromVariable: '${var.gpus}',
    counted: false,
  },
];

const PLACES = [
  { dir: 'infra/modules/queues', source: './modules/queues' },
  { dir: 'platform/queues', source: '../platform/queues' },
];

function tree(
  shape: Shape,
  place: (typeof PLACES)[number],
  quota: string,
  call: { gpus: number; env: string },
  withDefault: boolean,
): Tree {
  const out: Tree = {
    'infra/main.tf': `module "queues" {\n  source = "${place.source}"\n  gpus   = ${call.gpus}\n  env    = "${call.env}"\n}\n`,
    [`${place.dir}/variables.tf`]: `variable "gpus" {\n  type = number\n${withDefault ? '  default = 8\n' : ''}}\nvariable "env" {\n  type = string\n}\n`,
  };
  for (const [name, text] of Object.entries(shape.files(quota))) out[`${place.dir}/${name}`] = text;
  return out;
}

const notFollowed = (r: DetectedChanges) => r.coverage.some((c) => c.state === 'not-followed');

describe('objects a local module declares, sized by its call', () => {
  for (const shape of SHAPES)
    for (const place of PLACES)
      for (const withDefault of [true, false]) {
        const label = `${shape.id}, module at ${place.dir}${withDefault ? '' : ', no default'}`;

        it(`${label}: a call giving more GPUs is counted or not followed`, async () => {
          const r = await detectPr(
            tree(shape, place, shape.fromVariable, { gpus: 8, env: 'a' }, withDefault),
            tree(shape, place, shape.fromVariable, { gpus: 16, env: 'a' }, withDefault),
          );
          if (shape.counted) expect(changeRows(r).map((row) => row.slice(1, 4))).toEqual([['research', 8, 16]]);
          else expect(notFollowed(r)).toBe(true);
        });

        it(`${label}: an unrelated input changed is no change`, async () => {
          const r = await detectPr(
            tree(shape, place, shape.fromVariable, { gpus: 8, env: 'a' }, withDefault),
            tree(shape, place, shape.fromVariable, { gpus: 8, env: 'b' }, withDefault),
          );
          expect(changeRows(r)).toEqual([]);
          if (shape.counted) expect(notFollowed(r)).toBe(false);
        });

        it(`${label}: the module's own quota raised with its call touched is counted`, async () => {
          const r = await detectPr(
            tree(shape, place, '8', { gpus: 8, env: 'a' }, withDefault),
            tree(shape, place, '16', { gpus: 8, env: 'b' }, withDefault),
          );
          expect(changeRows(r).map((row) => row.slice(1, 4))).toEqual([['research', 8, 16]]);
        });
      }
});
