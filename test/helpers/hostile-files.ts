/**
 * Pull requests built to hold a reviewer's CPU: each a small or ordinary-looking change whose
 * reading grows far faster than its size, as issue reports and fuzzing found them.
 */

/** One changed file at base and head. */
export interface HostileFile {
  name: string;
  path: string;
  base: string;
  head: string;
  /** Sibling files both sides share (a kustomize base, module variables). */
  shared?: Record<string, string>;
}

/** A list doubled by `concat()` `doublings` times: about a kilobyte that evaluates to 2^n items. */
export function concatDoubling(doublings = 40): HostileFile {
  const locals = [`  l0 = ["a100"]`];
  for (let i = 1; i <= doublings; i++) locals.push(`  l${i} = concat(local.l${i - 1}, local.l${i - 1})`);
  const text = (count: number) => `locals {
${locals.join('\n')}
}

resource "google_container_node_pool" "gpu" {
  name       = "gpu-\${length(local.l${doublings})}"
  cluster    = "ml"
  node_count = ${count}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = local.l${doublings}[0]
      count = 1
    }
  }
}
`;
  return { name: `concat() doubling ×${doublings}`, path: 'infra/gke/pools.tf', base: text(2), head: text(4) };
}

/** A `for_each` over a range of `items` elements, each a GPU node pool. */
export function hugeForEach(items = 5_000_000): HostileFile {
  const text = (count: number) => `resource "google_container_node_pool" "gpu" {
  for_each   = toset([for i in range(${items}) : tostring(i)])
  name       = "gpu-\${each.key}"
  cluster    = "ml"
  node_count = ${count}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;
  return { name: `for_each over ${items.toLocaleString('en-US')} items`, path: 'infra/gke/each.tf', base: text(1), head: text(2) };
}

/** A kustomize overlay of about `bytes` with thousands of strategic-merge patches on one queue. */
export function kustomizeOverlay(bytes = 1_000_000): HostileFile {
  const base = `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: 4
`;
  const overlay = (gpus: number) => {
    const parts = ['apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../base\npatches:\n'];
    let size = parts[0]?.length ?? 0;
    for (let i = 0; size < bytes; i++) {
      const patch = `  - patch: |-\n      apiVersion: kueue.x-k8s.io/v1beta1\n      kind: ClusterQueue\n      metadata:\n        name: research\n        labels:\n          p${i}: "${i}"\n      spec:\n        resourceGroups:\n          - coveredResources: ["nvidia.com/gpu"]\n            flavors:\n              - name: a100\n                resources:\n                  - name: nvidia.com/gpu\n                    nominalQuota: ${gpus + (i % 2)}\n`;
      parts.push(patch);
      size += patch.length;
    }
    return parts.join('');
  };
  return {
    name: `kustomize overlay, ${Math.round(bytes / 1000)} kB of patches`,
    path: 'clusters/overlays/prod/kustomization.yaml',
    base: overlay(4),
    head: overlay(8),
    shared: { 'clusters/base/queue.yaml': base, 'clusters/base/kustomization.yaml': 'resources:\n  - queue.yaml\n' },
  };
}

const QUEUE = (gpus: number, extra = '') => `apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: research
${extra}spec:
  resourceGroups:
    - coveredResources: ["nvidia.com/gpu"]
      flavors:
        - name: a100
          resources:
            - name: nvidia.com/gpu
              nominalQuota: ${gpus}
`;

/** A billion laughs: `levels` anchors, each a list of ten aliases of the one before (10^levels nodes). */
function aliasBomb(levels = 12, indent = ''): string {
  const lines = [`${indent}l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `${indent}l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * YAML that costs a reader exponential or quadratic time and each file reader of it (a queue's
 * labels, a document of its own beside the queue, a kustomization, a Helm chart's values), and
 * flow collections nested 200,000 deep. `gpus`: what the head's queue, or its chart, declares.
 */
export function yamlBombs(): HostileFile[] {
  const chart = {
    'charts/pool/Chart.yaml': 'apiVersion: v2\nname: pool\nversion: 0.1.0\n',
    'charts/pool/templates/q.yaml': QUEUE(0).replace('nominalQuota: 0', 'nominalQuota: {{ .Values.gpus }}'),
  };
  const base = QUEUE(4);
  return [
    {
      name: 'an alias bomb in a queue’s labels',
      path: 'clusters/prod/queues.yaml',
      base: QUEUE(6),
      head: QUEUE(8, `  labels:\n${aliasBomb(12, '    ')}`),
    },
    {
      name: 'an alias bomb in a kustomization',
      path: 'clusters/overlays/prod/kustomization.yaml',
      base: 'resources:\n  - ../../base\n',
      head: `${aliasBomb(12, 'x')}resources:\n  - ../../base\n`,
      shared: { 'clusters/base/queue.yaml': base, 'clusters/base/kustomization.yaml': 'resources:\n  - queue.yaml\n' },
    },
    {
      name: 'an alias bomb in Helm values',
      path: 'charts/pool/values.yaml',
      base: 'gpus: 4\n',
      head: `${aliasBomb(12)}gpus: 8\n`,
      shared: chart,
    },
    {
      name: 'flow collections nested 200,000 deep',
      path: 'clusters/prod/queues.yaml',
      base: QUEUE(6),
      head: QUEUE(8).replace('nominalQuota: 8', `nominalQuota: 8\n  x: ${'['.repeat(200_000)}${']'.repeat(200_000)}`),
    },
  ];
}

/** Files a pull request adds together, each within every per-file limit; their number and size are the load. */
export interface HostileFileSet {
  name: string;
  head: Record<string, string>;
}

/**
 * `count` new queue files of `bytes` each, a queue padded by a comment: each passes the parsers'
 * cheap check, so each would be read and parsed. 3,000 is what GitHub lists of a pull request;
 * just under 512,000 bytes is what GraphQL serves whole, 250 to a query.
 */
export function manyQueueFiles(count: number, bytes: number): HostileFileSet {
  const head: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const queue = QUEUE(i + 1).replace('name: research', `name: q${i}`);
    head[`clusters/many/q${i}.yaml`] = `${queue}# ${'x'.repeat(Math.max(0, bytes - Buffer.byteLength(queue) - 3))}\n`;
  }
  return { name: `${count.toLocaleString('en-US')} new queue files of ${Math.round(bytes / 1000)} kB`, head };
}

const GKE_POOL = (count: string, before = '') => `${before}resource "google_container_node_pool" "gpu" {
  name       = "gpu"
  cluster    = "ml"
  node_count = ${count}
  node_config {
    machine_type = "a2-highgpu-1g"
    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 1
    }
  }
}
`;

const AKS_POOLS = (
  count: string,
) => `resource pools 'Microsoft.ContainerService/managedClusters/agentPools@2023-05-01' = [for i in range(0, ${count}): {
  name: 'gpu\${i}'
  properties: {
    count: 2
    vmSize: 'Standard_NC24ads_A100_v4'
  }
}]
`;

const POOL_CHART = {
  'charts/pool/Chart.yaml': 'apiVersion: v2\nname: pool\nversion: 0.1.0\n',
  'charts/pool/values.yaml': 'gpus: 4\n',
};

/** A chart template whose queue is `gpus` (template text), after `before` (template text). */
const chartQueue = (gpus: string, before = '') => `${before}${QUEUE(0).replace('nominalQuota: 0', `nominalQuota: ${gpus}`)}`;

/**
 * Evaluators and renderers asked for far more than a review may spend, each in a small file:
 * Terraform's `range()`, `format()` widths, `setproduct()` and `jsondecode()`; Bicep's `for` over
 * `range(0, 1e9)`; Helm's `until` past its bound and recursion doubling through `include`; a
 * billion laughs in the values file a Flux HelmRelease names. Each ends by its own budget, or is
 * not followed for what its reader does not render, its file named.
 */
export function evaluatorBombs(): HostileFile[] {
  const tf = (name: string, count: string, before = ''): HostileFile => ({
    name,
    path: 'infra/gke/pool.tf',
    base: GKE_POOL('2'),
    head: GKE_POOL(count, before),
  });
  const doubling = Array.from(
    { length: 40 },
    (_, i) => `{{- define "d${i}" }}{{ include "d${i + 1}" . }}{{ include "d${i + 1}" . }}{{ end }}\n`,
  );
  const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: pool
spec:
  chart:
    spec:
      chart: ./charts/pool
      sourceRef:
        kind: GitRepository
        name: infra
      valuesFiles:
        - ./charts/pool/values-prod.yaml
`;
  return [
    tf('range(0, 1e9) in Terraform', 'length(range(0, 1000000000)) > 0 ? 4 : 4'),
    tf('format("%0999999999d") in Terraform', 'length(format("%0999999999d", 1)) > 0 ? 4 : 4'),
    tf('setproduct of three 1,000-lists in Terraform', 'length(setproduct(range(1000), range(1000), range(1000))) > 0 ? 4 : 4'),
    tf(
      'jsondecode of text nested 300,000 deep in Terraform',
      'length(jsondecode(local.j)) > 0 ? 4 : 4',
      `locals {\n  j = "${'['.repeat(300_000)}${']'.repeat(300_000)}"\n}\n`,
    ),
    { name: 'a Bicep for over range(0, 1e9)', path: 'infra/aks/main.bicep', base: AKS_POOLS('1'), head: AKS_POOLS('1000000000') },
    {
      name: 'Helm until past its bound',
      path: 'charts/pool/templates/queue.yaml',
      base: chartQueue('100'),
      head: chartQueue('{{ div (len (until 150000)) 1000 }}'),
      shared: POOL_CHART,
    },
    {
      name: 'Helm include doubling 40 deep',
      path: 'charts/pool/templates/_helpers.tpl',
      base: '{{- define "d0" }}x{{ end }}\n',
      head: `${doubling.join('')}{{- define "d40" }}x{{ end }}\n`,
      shared: { ...POOL_CHART, 'charts/pool/templates/queue.yaml': chartQueue('{{ .Values.gpus }}', '{{- $x := include "d0" . }}\n') },
    },
    {
      name: 'an alias bomb in the values a HelmRelease reads',
      path: 'charts/pool/values-prod.yaml',
      base: 'gpus: 4\n',
      head: `${aliasBomb(12)}gpus: 8\n`,
      shared: { ...POOL_CHART, 'charts/pool/templates/queue.yaml': chartQueue('{{ .Values.gpus }}'), 'flux/pool.yaml': release },
    },
  ];
}

/**
 * Readers of one file that grow faster than it: a kustomize overlay of `count` replacements, each
 * aimed at every queue of a base of `count` queues (count² edits), and a queue whose labels are
 * `keys` keys on one line with one escaped character (each YAML reader of it, and the rewrite of
 * escapes every read file passes through, checks the keys for duplicates).
 */
export function fanOutFiles(count = 2000, keys = 40_000): HostileFile[] {
  const queues = Array.from({ length: count }, (_, i) => QUEUE(4).replace('name: research', `name: q${i}`)).join('---\n');
  const replacements = Array.from(
    { length: count },
    (_, i) =>
      `  - source:\n      kind: ClusterQueue\n      name: q${i}\n      fieldPath: metadata.name\n    targets:\n      - select:\n          kind: ClusterQueue\n        fieldPaths:\n          - metadata.labels.l${i}\n        options:\n          create: true\n`,
  ).join('');
  const labels = `  labels: {e: "\\x41", ${Array.from({ length: keys }, (_, i) => `k${i}: v${i}`).join(', ')}}\n`;
  return [
    {
      name: `kustomize replacements, ${count.toLocaleString('en-US')} × ${count.toLocaleString('en-US')} targets`,
      path: 'clusters/overlays/prod/kustomization.yaml',
      base: 'resources:\n  - ../../base\n',
      head: `resources:\n  - ../../base\nreplacements:\n${replacements}`,
      shared: { 'clusters/base/kustomization.yaml': 'resources:\n  - queue.yaml\n', 'clusters/base/queue.yaml': queues },
    },
    {
      name: `${keys.toLocaleString('en-US')} label keys on one line, one escaped`,
      path: 'clusters/prod/queues.yaml',
      base: QUEUE(6),
      head: QUEUE(8, labels),
    },
  ];
}
