import { isNode, LineCounter } from 'yaml';
import { MAX_FILE_CHARS } from '../../domain/index.js';
import type { CapacityDecl, NotFollowed } from '../../domain/index.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { mapGet, scalarString } from '../kit/yaml-nodes.js';
import { fileFormat } from '../kit/yaml-segments.js';
import { dirOf } from '../kit/paths.js';
import type { ParseResult } from '../parser.js';
import { kueueParser } from './kueue.js';
import { flavorModels } from './kueue-flavors.js';
import { queueModel } from './kueue-queue.js';

/** The most directories walked, and unchanged files read, for the queues that name a changed flavor. */
const MAX_DIRS = 256;
const MAX_READS = 512;

export interface FlavorFollowIo {
  base: { read(path: string): Promise<string | null> };
  head: { read(path: string): Promise<string | null> };
  /** Files directly inside a directory. */
  list(dir: string): Promise<string[]>;
  /** Directories directly inside a directory, when the listing side can tell. */
  dirs?: (dir: string) => Promise<string[]>;
}

export interface FollowedFlavors {
  base: Required<ParseResult>;
  head: Required<ParseResult>;
  /** Changed files whose flavors were followed to every queue that names them. */
  followed: string[];
  notFollowed: NotFollowed[];
}

interface Flavor {
  file: string;
  line: number;
  /** The flavor's spec as data: what Kueue places a queue's workloads by. */
  print: string;
  /** Its `nodeLabels` as data, null when it has none: which nodes its quota buys. */
  labels: string | null;
  doc: YamlDoc;
}

/**
 * A ResourceFlavor changed in a file of its own (flavors/gpu.yaml beside an unchanged queue.yaml)
 * changes what the quota of every ClusterQueue naming it buys: the GPU model its node labels name.
 * Each such queue is read from the tree at both sides with that side's flavors, so a swap shows as
 * a change of model (judged by analysis/model-swap.ts). A changed flavor no queue can be found
 * naming, one a queue names that the head no longer defines, or one whose queue's model cannot be
 * told at a side, is not followed: never read as no change.
 */
export async function followFlavorChanges(changed: readonly string[], io: FlavorFollowIo): Promise<FollowedFlavors> {
  const out: FollowedFlavors = { base: empty(), head: empty(), followed: [], notFollowed: [] };
  const changedSet = new Set(changed);
  const files = changed.filter((p) => fileFormat(p) === 'yaml');
  const base = new Map<string, Flavor>();
  const head = new Map<string, Flavor>();
  for (const path of files) {
    await collectFlavors(path, await io.base.read(path), base);
    await collectFlavors(path, await io.head.read(path), head);
  }
  const moved = [...new Set([...base.keys(), ...head.keys()])].filter((n) => base.get(n)?.print !== head.get(n)?.print).sort();
  if (moved.length === 0) return out;

  const walk = await queuesNaming(new Set(moved), changedSet, io);
  const queues = walk.found;
  // A changed file's queues are read by the Kueue reader, with the flavors of their own folder.
  const named = new Set<string>();
  for (const q of walk.changedQueues) {
    const flavors = q.decl.parts.map((p) => p.label).filter((l) => moved.includes(l));
    const apart = flavors.filter((f) => dirOf((head.get(f) ?? base.get(f))?.file ?? '') !== dirOf(q.decl.file));
    for (const f of flavors) if (!apart.includes(f)) named.add(f);
  }
  const modelsAt = (side: Map<string, Flavor>) => flavorModels([...side.values()].map((f) => f.doc));
  const baseModels = modelsAt(base);
  const headModels = modelsAt(head);
  for (const { decl, docs } of queues) {
    const own = flavorModels(docs);
    const flavors = decl.parts.map((p) => p.label).filter((l) => moved.includes(l));
    for (const f of flavors) named.add(f);
    const gone = flavors.filter((f) => !head.has(f));
    const before = queueModel(decl.parts, new Map([...own, ...baseModels]));
    const after = queueModel(decl.parts, new Map([...own, ...headModels]));
    const at = head.get(flavors[0] ?? '') ?? base.get(flavors[0] ?? '');
    // Taints and tolerations changed on the same labelled nodes: the queue buys the same GPUs.
    const sameNodes = flavors.every((f) => (base.get(f)?.labels ?? null) !== null && base.get(f)?.labels === head.get(f)?.labels);
    if (gone.length === 0 && before === after && sameNodes) continue;
    if (gone.length > 0 || before === null || after === null) {
      const why =
        gone.length > 0
          ? `ClusterQueue ${decl.name} (${decl.file}:${decl.line}) names ${gone.join(', ')}, which the head no longer defines`
          : `the GPU model of ClusterQueue ${decl.name} (${decl.file}:${decl.line}) cannot be told from its flavors at the ${before === null ? 'base' : 'head'}`;
      out.notFollowed.push(notFollowed(at?.file ?? decl.file, at?.line ?? null, flavors, why));
      continue;
    }
    out.base.decls.push({ ...decl, gpuModel: before });
    out.head.decls.push({ ...decl, gpuModel: after });
  }
  for (const name of moved.filter((n) => !named.has(n))) {
    const f = head.get(name) ?? base.get(name);
    if (f === undefined) continue;
    const why = walk.truncated
      ? `no ClusterQueue found naming it in the first ${MAX_DIRS} folders and ${MAX_READS} files of the repository, so what a quota on it buys is not known`
      : 'no ClusterQueue found in the repository names it (or one changed in another folder does), so what a quota on it buys is not known';
    out.notFollowed.push(notFollowed(f.file, f.line, [name], why));
  }
  // A walk cut short may have missed a queue naming a flavor it did find queues for.
  if (walk.truncated && named.size > 0) {
    const first = [...named].sort()[0] ?? '';
    const f = head.get(first) ?? base.get(first);
    if (f !== undefined)
      out.notFollowed.push(
        notFollowed(
          f.file,
          f.line,
          [...named].sort(),
          `the repository is larger than the ${MAX_DIRS} folders and ${MAX_READS} files walked for the queues that name it`,
        ),
      );
  }
  const unresolved = new Set(out.notFollowed.map((n) => n.file));
  out.followed = files.filter((f) => !unresolved.has(f) && [...base.values(), ...head.values()].some((x) => x.file === f));
  return out;
}

function empty(): Required<ParseResult> {
  return { decls: [], diagnostics: [], unresolved: [] };
}

function notFollowed(file: string, line: number | null, flavors: readonly string[], needs: string): NotFollowed {
  return { file, line, reason: 'kueue-flavor', subject: `ResourceFlavor ${flavors.join(', ')}`, needs, inputs: [...flavors] };
}

async function collectFlavors(path: string, text: string | null, into: Map<string, Flavor>): Promise<void> {
  if (text === null || text.length > MAX_FILE_CHARS || !text.includes('ResourceFlavor')) return;
  const lc = new LineCounter();
  for (const doc of readYaml(text, lc, { lists: true })) {
    if (doc.errors.length > 0) continue;
    const root = doc.contents;
    if (scalarString(mapGet(root, 'kind')) !== 'ResourceFlavor') continue;
    if (!(scalarString(mapGet(root, 'apiVersion')) ?? '').startsWith('kueue.x-k8s.io/')) continue;
    const name = scalarString(mapGet(mapGet(root, 'metadata'), 'name'));
    if (name === null) continue;
    const spec = mapGet(root, 'spec');
    const labels = mapGet(spec, 'nodeLabels');
    const labelData: unknown = isNode(labels) ? labels.toJSON() : null;
    into.set(name, {
      file: path,
      line: lc.linePos(doc.range[0]).line,
      print: JSON.stringify(isNode(spec) ? spec.toJSON() : (spec ?? null)),
      labels: labelData !== null && typeof labelData === 'object' && Object.keys(labelData).length > 0 ? JSON.stringify(labelData) : null,
      doc,
    });
  }
}

/**
 * The ClusterQueues in unchanged YAML files of the tree that name one of `flavors`, each with its
 * file's documents (its own flavors). The walk starts at the root, as far as the listing goes.
 */
async function queuesNaming(
  flavors: ReadonlySet<string>,
  changed: ReadonlySet<string>,
  io: FlavorFollowIo,
): Promise<{ found: QueueFound[]; changedQueues: QueueFound[]; truncated: boolean }> {
  const out = { found: [] as QueueFound[], changedQueues: [] as QueueFound[], truncated: false };
  const dirs = [''];
  const seen = new Set<string>();
  let reads = 0;
  while (dirs.length > 0) {
    const dir = dirs.shift() ?? '';
    if (seen.has(dir)) continue;
    if (seen.size >= MAX_DIRS) {
      out.truncated = true;
      break;
    }
    seen.add(dir);
    for (const path of (await io.list(dir)).filter((p) => fileFormat(p) === 'yaml').sort()) {
      if (reads >= MAX_READS) {
        out.truncated = true;
        break;
      }
      reads += 1;
      // An unchanged file is the same at both sides; a changed one is read as the head has it.
      const text = await io.head.read(path);
      if (text === null || text.length > MAX_FILE_CHARS || !text.includes('ClusterQueue')) continue;
      if (![...flavors].some((f) => text.includes(f))) continue;
      const parsed = kueueParser.parse(path, text);
      const docs = readYaml(text, new LineCounter(), { lists: true }).filter((d) => d.errors.length === 0);
      const into = changed.has(path) ? out.changedQueues : out.found;
      for (const decl of parsed.decls) if (decl.parts.some((p) => flavors.has(p.label))) into.push({ decl, docs });
    }
    if (io.dirs) dirs.push(...(await io.dirs(dir)).sort());
  }
  return out;
}

interface QueueFound {
  decl: CapacityDecl;
  docs: YamlDoc[];
}
