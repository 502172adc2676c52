import { lookupInstanceType } from '../../detect/kit/gpu-types/index.js';
import type { Manifest } from '../../detect/kit/manifests.js';
import { readManifests } from '../../detect/kit/manifests.js';
import { mapGet, nodeLine, scalarString, scalarText, scalarValue } from '../../detect/kit/yaml-nodes.js';
import type { DeclaredWorkload, Diagnostic, LocalQueueSeen, PodGroup, SourceRef } from '../../domain/index.js';
import { diagnostic } from '../../domain/index.js';
import { WORKLOAD_KINDS } from './kinds.js';
import type { RawWorkload } from './kinds.js';
import { kustomizeNamespaces } from './kustomize-namespaces.js';
import { containerGpus, placement, podGpus, ref, unreadGpus } from './pod-template.js';
import { findClusterQueue } from './queue-lookup.js';

const QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';

/** Files worth parsing: they name a GPU resource, a LocalQueue or a KAITO workspace. */
const SIGNAL = /nvidia\.com\/gpu|amd\.com\/gpu|gpu\.intel\.com\/|\bLocalQueue\b|kaito\.sh\//;

/**
 * And they hold a kind this reader takes: a megabyte of ClusterQueues names `nvidia.com/gpu`
 * thousands of times and no workload, and parsing it would hold the App's event loop.
 */
const KIND_LINE = new RegExp(
  `^[ \\t-]*kind:[ \\t]*["']?(?:${[...Object.keys(WORKLOAD_KINDS), 'LocalQueue', 'Workspace'].join('|')})["']?[ \\t\\r]*(?:#[^\\r\\n]*)?\\r?$`,
  'm',
);

export interface DeclaredWorkloads {
  workloads: DeclaredWorkload[];
  diagnostics: Diagnostic[];
}

interface LocalQueue extends LocalQueueSeen {
  name: string;
  /** Where kustomizations apply it, when it names no namespace itself. */
  appliedIn: string[];
}

/** Where each manifest file runs when its objects name no namespace: the kustomizations' namespaces. */
type Namespaces = Map<string, { name: string; source: SourceRef }[]>;

/**
 * The GPU workloads a repository's manifests declare, with where each value was read; Kueue's
 * queue-name label followed through the repository's LocalQueues to their ClusterQueue. Files that
 * hold none cost a regular-expression test. Never throws.
 */
export function declaredWorkloads(files: readonly { path: string; text: string }[]): DeclaredWorkloads {
  const diagnostics: Diagnostic[] = [];
  const manifests: Manifest[] = [];
  for (const f of files) {
    if (!/\.ya?ml$/i.test(f.path) || !SIGNAL.test(f.text) || !KIND_LINE.test(f.text)) continue;
    const scan = readManifests(f.path, f.text, (t) => SIGNAL.test(t));
    diagnostics.push(...scan.diagnostics);
    manifests.push(...scan.manifests.filter((m) => !m.embedded));
  }
  const namespaces = kustomizeNamespaces(files);
  const queues = manifests.flatMap((m) => localQueue(m, namespaces) ?? []);
  const workloads = manifests.flatMap((m) => workloadOf(m, queues, namespaces, diagnostics) ?? []);
  return { workloads, diagnostics };
}

function apiGroup(apiVersion: string | null): string {
  if (apiVersion === null) return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function namespaceOf(m: Manifest): string | null {
  return scalarString(mapGet(mapGet(m.root, 'metadata'), 'namespace'));
}

function localQueue(m: Manifest, namespaces: Namespaces): LocalQueue | null {
  if (m.kind !== 'LocalQueue' || apiGroup(m.apiVersion) !== 'kueue.x-k8s.io' || m.name === null) return null;
  const cq = mapGet(mapGet(m.root, 'spec'), 'clusterQueue');
  const clusterQueue = scalarString(cq);
  if (clusterQueue === null) return null;
  const applied = (namespaces.get(m.ctx.file) ?? []).map((n) => n.name);
  const base = { name: m.name, clusterQueue, source: ref(m.ctx, cq, m.line) };
  // Kustomize sets the namespace over the object's own; each one it is applied in is a queue there.
  return { ...base, namespace: applied.length === 1 ? (applied[0] ?? null) : namespaceOf(m), appliedIn: applied };
}

/** One entry per namespace a LocalQueue lands in, for the lookup. */
function queuesSeen(queues: readonly LocalQueue[], name: string): LocalQueueSeen[] {
  return queues
    .filter((q) => q.name === name)
    .flatMap((q) =>
      q.appliedIn.length > 1
        ? q.appliedIn.map((ns) => ({ namespace: ns, clusterQueue: q.clusterQueue, source: q.source }))
        : [{ namespace: q.namespace, clusterQueue: q.clusterQueue, source: q.source }],
    );
}

/** `metadata.name`, or a `generateName` prefix without its trailing dash (Jobs created by kubectl create). */
function nameOf(m: Manifest): string | null {
  return m.name ?? scalarString(mapGet(mapGet(m.root, 'metadata'), 'generateName'))?.replace(/-+$/, '') ?? null;
}

/** The namespace a workload runs in: its own, else the one kustomizations give its file (when they agree). */
function placedIn(m: Manifest, namespaces: Namespaces): { namespace: string | null; from?: SourceRef; all: string[] } {
  const own = namespaceOf(m);
  const applied = namespaces.get(m.ctx.file) ?? [];
  if (applied.length === 0) return { namespace: own, all: own === null ? [] : [own] };
  const all = applied.map((n) => n.name);
  const one = applied.length === 1 ? applied[0] : undefined;
  return one ? { namespace: one.name, from: one.source, all } : { namespace: own, all };
}

function workloadOf(
  m: Manifest,
  queues: readonly LocalQueue[],
  namespaces: Namespaces,
  diagnostics: Diagnostic[],
): DeclaredWorkload | null {
  const name = nameOf(m);
  if (m.kind === null || name === null) return null;
  const where = placedIn(m, namespaces);
  if (m.kind === 'Workspace' && apiGroup(m.apiVersion) === 'kaito.sh') return kaitoWorkspace(m, queues, where);
  const entry = WORKLOAD_KINDS[m.kind];
  if (!entry?.groups.includes(apiGroup(m.apiVersion))) return null;
  const raw = entry.extract(m.root);
  if (!raw) return null;
  const groups: PodGroup[] = [];
  let resource: string | null = null;
  let pinned: ReturnType<typeof placement> = { pool: null, instanceType: null };
  for (const g of raw.groups) {
    const gpus = g.resources !== undefined ? containerGpus(g.resources) : podGpus(g.podSpec);
    if (!gpus) {
      const unread = unreadGpus(g.podSpec, g.resources);
      if (unread !== null) {
        const at = ref(m.ctx, unread, m.line).line;
        diagnostics.push(
          diagnostic(
            m.ctx.file,
            at,
            'warning',
            `${m.kind} ${name}: the ${g.role} pods' GPU count is not a number; its GPUs are not counted`,
          ),
        );
      }
      continue;
    }
    const source = ref(m.ctx, g.at, m.line);
    if (g.pods === null) {
      diagnostics.push(
        diagnostic(
          m.ctx.file,
          source.line,
          'warning',
          `${m.kind} ${m.name}: the ${g.role} pod count is not a number; its GPUs are not counted`,
        ),
      );
      continue;
    }
    resource ??= gpus.resource;
    groups.push({ role: g.role, gpusPerPod: gpus.gpus, pods: g.pods, source });
    const here = placement(g.podSpec, m.ctx, m.line);
    pinned = { pool: pinned.pool ?? here.pool, instanceType: pinned.instanceType ?? here.instanceType };
  }
  if (groups.length === 0 || resource === null) return null;
  return {
    name,
    namespace: where.namespace,
    ...(where.from ? { namespaceFrom: where.from } : {}),
    kind: m.kind,
    type: raw.type,
    source: { file: m.ctx.file, line: m.line },
    groups,
    gpuResource: resource,
    schedule: scheduleOf(raw, m),
    maxRuntimeMinutes: maxRuntime(raw, m),
    ...queueLinks(raw.labelHolders, where.all, queues, m),
    pool: pinned.pool,
    instanceType: pinned.instanceType,
  };
}

function scheduleOf(raw: RawWorkload, m: Manifest): DeclaredWorkload['schedule'] {
  const cron = raw.cronJob ? scalarString(raw.cronJob.schedule) : null;
  if (!raw.cronJob || cron === null) return null;
  return { cron, timeZone: scalarString(raw.cronJob.timeZone), source: ref(m.ctx, raw.cronJob.schedule, m.line) };
}

function maxRuntime(raw: RawWorkload, m: Manifest): DeclaredWorkload['maxRuntimeMinutes'] {
  const node = mapGet(raw.jobSpec, 'activeDeadlineSeconds');
  const seconds = scalarValue(node);
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
  return { value: Math.ceil(seconds / 60), source: ref(m.ctx, node, m.line) };
}

/**
 * The queue-name label (or the annotation older Kueue releases read), and the ClusterQueue of the
 * LocalQueue it names where the workload runs (queue-lookup.ts says how, and when it cannot).
 */
function queueLinks(
  holders: readonly unknown[],
  namespaces: readonly string[],
  queues: readonly LocalQueue[],
  m: Manifest,
): Pick<DeclaredWorkload, 'localQueue' | 'clusterQueue' | 'queueLookup'> {
  for (const holder of holders) {
    for (const field of ['labels', 'annotations']) {
      const node = mapGet(mapGet(holder, field), QUEUE_LABEL);
      const name = scalarText(node);
      if (name === '') continue;
      const { clusterQueue, lookup } = findClusterQueue(queuesSeen(queues, name), namespaces, m.ctx.file);
      return { localQueue: { name, source: ref(m.ctx, node, m.line) }, clusterQueue, queueLookup: lookup };
    }
  }
  return { localQueue: null, clusterQueue: null };
}

/** A KAITO Workspace: `resource.count` nodes of `resource.instanceType`, each with that type's GPUs. */
function kaitoWorkspace(m: Manifest, queues: readonly LocalQueue[], where: ReturnType<typeof placedIn>): DeclaredWorkload | null {
  const resource = mapGet(m.root, 'resource');
  const typeNode = mapGet(resource, 'instanceType');
  const type = scalarString(typeNode);
  const info = type ? lookupInstanceType(type) : null;
  if (!type || !info) return null;
  const countNode = mapGet(resource, 'count');
  const count = countNode === undefined ? 1 : scalarValue(countNode);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return null;
  const source = { file: m.ctx.file, line: nodeLine(countNode ?? resource, m.ctx.lc) ?? m.line };
  return {
    name: m.name ?? 'workspace',
    namespace: where.namespace,
    ...(where.from ? { namespaceFrom: where.from } : {}),
    kind: 'Workspace',
    type: mapGet(m.root, 'tuning') === undefined ? 'inference' : 'training',
    source: { file: m.ctx.file, line: m.line },
    groups: [{ role: 'node', gpusPerPod: info.gpus, pods: count, source }],
    gpuResource: 'nvidia.com/gpu',
    schedule: null,
    maxRuntimeMinutes: null,
    ...queueLinks([mapGet(m.root, 'metadata')], where.all, queues, m),
    pool: null,
    instanceType: { name: type, source: ref(m.ctx, typeNode, m.line) },
  };
}
