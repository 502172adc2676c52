import type { CapacityDecl } from '../../domain/index.js';
import { envsubstDefault, readCount, readWholeCount } from '../kit/counts.js';
import type { CountRead } from '../kit/counts.js';
import { isWholeGpuResource, PRIMARY_GPU_RESOURCE } from '../kit/gpu-resources.js';
import { readManifests } from '../kit/manifests.js';
import type { Manifest } from '../kit/manifests.js';
import { classifyTypes } from '../kit/node-types.js';
import { Findings, yamlParser } from '../kit/parser-kit.js';
import { findTemplateExpression } from '../kit/template.js';
import { mapGet, nodeLine, nodeSource, scalarString, seqItems } from '../kit/yaml-nodes.js';

const KIND = 'capi-machinedeployment' as const;
const MARKERS = /cluster\.x-k8s\.io\//;
const MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const GPU_COUNT = 'capacity.cluster-autoscaler.kubernetes.io/gpu-count';
// The resource the GPUs are advertised as (`nvidia.com/gpu`, `amd.com/gpu`), beside gpu-count.
const GPU_TYPE = 'capacity.cluster-autoscaler.kubernetes.io/gpu-type';
// Where each provider's machine template or machine pool keeps the machine type (path under
// the object's root; the first path present wins), and for managed pools, the autoscaling maximum.
const INFRA: Record<string, { type: string[][]; max?: string[] }> = {
  AWSMachineTemplate: { type: [['spec', 'template', 'spec', 'instanceType']] },
  AzureMachineTemplate: { type: [['spec', 'template', 'spec', 'vmSize']] },
  GCPMachineTemplate: { type: [['spec', 'template', 'spec', 'instanceType']] },
  AWSMachinePool: { type: [['spec', 'awsLaunchTemplate', 'instanceType']] },
  AWSManagedMachinePool: { type: [['spec', 'instanceType']], max: ['spec', 'scaling', 'maxSize'] },
  AzureMachinePool: { type: [['spec', 'template', 'vmSize']] },
  AzureManagedMachinePool: { type: [['spec', 'sku']], max: ['spec', 'scaling', 'maxSize'] },
  // CAPG's GKE pools have used both names for the machine type.
  GCPManagedMachinePool: {
    type: [
      ['spec', 'instanceType'],
      ['spec', 'machineType'],
    ],
    max: ['spec', 'scaling', 'maxCount'],
  },
};

/**
 * Cluster API MachineDeployment / MachinePool: nodes = the autoscaler max-size annotation when
 * present, else `replicas`; GPUs per node from the autoscaler gpu-count annotation, else the
 * machine type of the referenced AWS/Azure/GCP machine template in the same file. ClusterClass
 * topologies count `workers.machineDeployments[].replicas` the same way.
 */
export const capiParser = yamlParser('cluster-api', MARKERS, (path, text) => {
  const found = new Findings(path);
  const scan = readManifests(path, text, (t) => MARKERS.test(t) || /MachineTemplate|ClusterClass/.test(t));
  found.diagnostics.push(...scan.diagnostics);
  const gpuFile = /gpu/i.test(text) || /gpu/i.test(path);
  for (const m of scan.manifests) {
    const api = m.apiVersion ?? '';
    if (!api.startsWith('cluster.x-k8s.io/')) continue;
    if (m.kind === 'MachineDeployment' || m.kind === 'MachinePool') {
      const infra = mapGet(mapGet(mapGet(mapGet(m.root, 'spec'), 'template'), 'spec'), 'infrastructureRef');
      const pool: Pool = {
        label: m.kind,
        name: nameOf(m, mapGet(mapGet(m.root, 'metadata'), 'name')),
        replicas: mapGet(mapGet(m.root, 'spec'), 'replicas'),
        annotations: mapGet(mapGet(m.root, 'metadata'), 'annotations'),
        line: m.line,
        infra: templateRef(scan.manifests, infra, m),
      };
      if (!readPool(m, pool, null, gpuFile, found)) templateElsewhere(m, pool, infra, found);
    } else if (m.kind === 'Cluster') {
      readTopology(m, scan.manifests, gpuFile, found);
    }
  }
  return found.result(text);
});

interface Pool {
  label: string;
  name: string;
  replicas: unknown;
  annotations: unknown;
  line: number;
  /** The machine template's type field node, when the template is in the file. */
  infra: InfraRef | null;
}

interface InfraRef {
  node: unknown;
  kind: string;
  field: string;
  /** A managed pool's autoscaling maximum node, when it sets one. */
  max: unknown;
}

function nameOf(m: Manifest, node: unknown): string {
  // The source, not the value: a masked (templated) document's values hide their templates.
  return (
    nodeSource(node, m.ctx.text)
      .trim()
      .replace(/^(["'])(.*)\1$/, '$2') || '(unnamed)'
  );
}

function templateRef(all: readonly Manifest[], ref: unknown, from: Manifest): InfraRef | null {
  const kind = scalarString(mapGet(ref, 'kind'));
  const name = nameOf(from, mapGet(ref, 'name'));
  const shape = kind === null ? undefined : INFRA[kind];
  if (kind === null || !shape) return null;
  const tmpl = all.find((t) => t.kind === kind && nameOf(t, mapGet(mapGet(t.root, 'metadata'), 'name')) === name);
  if (!tmpl) return null;
  const path = shape.type.find((p) => dig(tmpl.root, p) !== undefined) ?? shape.type[0] ?? [];
  return {
    node: dig(tmpl.root, path),
    kind,
    field: path[path.length - 1] ?? 'machine type',
    max: shape.max ? dig(tmpl.root, shape.max) : undefined,
  };
}

function dig(root: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => mapGet(node, key), root);
}

type PerNode = { gpus: number; model: string | null; via: string } | { unknown: string };

function perNodeOf(m: Manifest, pool: Pool, topologyGpus: number | null): PerNode | null {
  const ann = readCount(mapGet(pool.annotations, GPU_COUNT), m.ctx, pool.line);
  if (ann)
    return ann.ok
      ? { gpus: ann.value, model: null, via: `${GPU_COUNT} annotation` }
      : { unknown: `the ${GPU_COUNT} annotation ${ann.error}` };
  if (pool.infra && pool.infra.node !== undefined && pool.infra.node !== null) {
    const source = nodeSource(pool.infra.node, m.ctx.text).trim();
    const expr = findTemplateExpression(source);
    const type = expr === null ? (scalarString(pool.infra.node) ?? '') : (envsubstDefault(source) ?? '');
    const info = classifyTypes(type ? [type] : []);
    const field = pool.infra.field;
    if (info.kind === 'gpu')
      return { gpus: info.gpusPerNode, model: info.gpuModel, via: expr ? `${field} ${expr}, default ${type}` : `${field} ${type}` };
    if (info.kind === 'unknown-gpu') return { unknown: `${field} ${type} is not in the catalog` };
    if (expr !== null && !type)
      return { unknown: `${pool.infra.kind} ${field} is the template expression ${expr}, unknown until rendered` };
  }
  if (topologyGpus !== null) return { gpus: topologyGpus, model: null, via: 'the gpus listed in the topology variables' };
  return null;
}

/**
 * A MachineDeployment or MachinePool whose machine template is not in the file (nor read with it
 * from the files beside it: context-objects.ts): its machines' type is unknown, so a change to how
 * many it runs, or to the template it names, is not followed. The fingerprint lets the same count
 * and template at both sides pass.
 */
function templateElsewhere(m: Manifest, pool: Pool, ref: unknown, found: Findings): void {
  const kind = scalarString(mapGet(ref, 'kind'));
  if (kind === null || INFRA[kind] === undefined || pool.infra !== null) return;
  const template = `${kind} ${nameOf(m, mapGet(ref, 'name'))}`;
  const size = mapGet(pool.annotations, MAX_SIZE) ?? pool.replicas;
  found.notFollowed.push({
    file: m.ctx.file,
    line: nodeLine(size, m.ctx.lc) ?? pool.line,
    reason: 'count-unknown',
    subject: `${pool.label} ${pool.name}`,
    needs: `its machines are of ${template}, which is neither in this file nor in a file beside it: keep the template with its ${pool.label}, or check its machine type by hand`,
    fingerprint: JSON.stringify([
      nodeSource(pool.replicas, m.ctx.text),
      nodeSource(pool.annotations, m.ctx.text),
      nodeSource(ref, m.ctx.text),
    ]),
  });
}

/** Reads one pool; false when nothing in view says its machines have GPUs. */
function readPool(m: Manifest, pool: Pool, topologyGpus: number | null, gpuFile: boolean, found: Findings): boolean {
  const perNode = perNodeOf(m, pool, topologyGpus);
  if (perNode === null) return false;
  const where = `${pool.label} ${pool.name}`;
  if ('unknown' in perNode) {
    // A templated machine type in a file that never mentions GPUs is most likely a CPU pool.
    if (!gpuFile) {
      found.note(pool.line, 'info', `${where}: ${perNode.unknown}; not counted as GPUs`);
      return true;
    }
    found.note(pool.line, 'warning', `${where}: ${perNode.unknown}; its GPUs per node are unknown`);
    found.unknown(KIND, pool.name, pool.line);
    return true;
  }
  const max = readCount(mapGet(pool.annotations, MAX_SIZE), m.ctx, pool.line);
  // A managed pool (EKS, AKS, GKE) scales itself between its scaling bounds; replicas is only the start.
  const managedMax = max ? null : readWholeCount(pool.infra?.max, m.ctx, pool.line);
  const nodes: CountRead | null = max ?? managedMax ?? readWholeCount(pool.replicas, m.ctx, pool.line);
  const field = max ? `the ${MAX_SIZE} annotation` : managedMax ? `${pool.infra?.kind} scaling maximum` : 'replicas';
  if (!nodes || !nodes.ok) {
    const why = nodes ? nodes.error : 'is not set';
    found.note(
      nodes?.line ?? pool.line,
      'warning',
      `${where}: ${field} ${why}; with ${perNode.gpus} GPUs per node (${perNode.via}) its GPUs are not counted`,
    );
    found.unknown(KIND, pool.name, nodes?.line ?? pool.line);
    return true;
  }
  if (perNode.via.includes('topology')) {
    found.note(nodes.line, 'info', `${where}: ${perNode.gpus} GPUs per node taken from ${perNode.via}`);
  }
  const gpus = nodes.value * perNode.gpus;
  const decl: CapacityDecl = {
    file: m.ctx.file,
    line: nodes.line,
    kind: KIND,
    name: pool.name,
    gpuModel: perNode.model,
    gpus,
    gpuStep: perNode.gpus,
    parts: [{ label: `${nodes.value} nodes × ${perNode.gpus}`, resource: gpuResource(pool.annotations), gpus, line: nodes.line }],
  };
  found.decls.push(decl);
  return true;
}

function readTopology(m: Manifest, all: readonly Manifest[], gpuFile: boolean, found: Findings): void {
  const topology = mapGet(mapGet(m.root, 'spec'), 'topology');
  const cluster = nameOf(m, mapGet(mapGet(m.root, 'metadata'), 'name'));
  const className = scalarString(mapGet(topology, 'class'));
  const clusterClass = all.find((c) => c.kind === 'ClusterClass' && c.name === className);
  const variables = seqItems(mapGet(topology, 'variables'));
  for (const md of seqItems(mapGet(mapGet(topology, 'workers'), 'machineDeployments'))) {
    const mdClass = scalarString(mapGet(md, 'class'));
    const classMd = seqItems(mapGet(mapGet(mapGet(clusterClass?.root, 'spec'), 'workers'), 'machineDeployments')).find(
      (c) => scalarString(mapGet(c, 'class')) === mdClass,
    );
    const infraRef = mapGet(mapGet(mapGet(classMd, 'template'), 'infrastructure'), 'ref');
    const overrides = seqItems(mapGet(mapGet(md, 'variables'), 'overrides'));
    const pool: Pool = {
      label: 'Cluster topology machineDeployment',
      name: `${cluster}/${nameOf(m, mapGet(md, 'name'))}`,
      replicas: mapGet(md, 'replicas'),
      annotations: mapGet(mapGet(md, 'metadata'), 'annotations'),
      line: nodeLine(md, m.ctx.lc) ?? m.line,
      infra: clusterClass ? templateRef(all, infraRef, clusterClass) : null,
    };
    readPool(m, pool, topologyGpus([...overrides, ...variables]), gpuFile, found);
  }
}

/**
 * GPUs per worker from topology variables that list them (`workerMachineDetails.gpus: [..]` in
 * the Nutanix provider): one entry per GPU passed through. Control-plane variables are skipped.
 */
function topologyGpus(variables: readonly unknown[]): number | null {
  for (const v of variables) {
    const name = scalarString(mapGet(v, 'name')) ?? '';
    if (!/worker/i.test(name)) continue;
    const gpus = mapGet(mapGet(v, 'value'), 'gpus');
    const items = seqItems(gpus);
    if (items.length > 0) return items.length;
  }
  return null;
}

/** The whole-GPU resource the gpu-type annotation names; NVIDIA's when absent or not a GPU name. */
function gpuResource(annotations: unknown): string {
  const type = scalarString(mapGet(annotations, GPU_TYPE))?.trim() ?? '';
  return isWholeGpuResource(type) ? type : PRIMARY_GPU_RESOURCE;
}
