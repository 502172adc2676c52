import { LineCounter } from 'yaml';
import { MAX_FILE_CHARS } from '../../domain/index.js';
import type { CapacityDecl, NotFollowed } from '../../domain/index.js';
import { readYaml } from '../kit/kube-yaml.js';
import type { YamlDoc } from '../kit/kube-yaml.js';
import { mapGet, scalarString } from '../kit/yaml-nodes.js';
import { fileFormat } from '../kit/yaml-segments.js';
import { dirOf } from '../kit/paths.js';
import type { ParseResult, SourceFile } from '../parser.js';
import { isTerraformPath } from '../terraform/terraform-parser.js';
import { isTfFile } from '../terraform/tf-json.js';
import { kueueParser } from './kueue.js';
import { isKustomizePatch, mayCarryFlavors, readFlavors } from './flavor-read.js';
import type { Flavor } from './flavor-read.js';
import { flavorModels } from './kueue-flavors.js';
import { queueModel } from './kueue-queue.js';

/** The most directories walked, and unchanged files read, for the queues that name a changed flavor. */
const MAX_DIRS = 256;
const MAX_READS = 512;
/** The most Terraform folders, and files of one, read for flavors set by a changed variable. */
const MAX_MODULES = 32;
const MAX_MODULE_FILES = 64;

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
  const modules = await terraformModules(changed, io);
  const files = [...new Set([...changed.filter(mayCarryFlavors), ...modules.flavorFiles])].sort();
  const base = new Map<string, Flavor>();
  const head = new Map<string, Flavor>();
  for (const path of files) {
    const texts = { base: await io.base.read(path), head: await io.head.read(path) };
    const module = (side: 'base' | 'head') => modules.files.get(dirOf(path))?.[side] ?? [];
    const read = { base: readFlavors(path, texts.base, module('base')), head: readFlavors(path, texts.head, module('head')) };
    const unread = read.base.unread + read.head.unread;
    if (unread > 0) {
      // An object the readers cannot take may be the flavor the change is in: named, never "no change".
      out.notFollowed.push(unreadFlavors(path, read.base.unread > 0 ? texts.base : texts.head));
      continue;
    }
    // Only a file holding a flavor has its folder's kustomizations read: each read may be an API call.
    if (read.base.flavors.length + read.head.flavors.length === 0) continue;
    if ((await isKustomizePatch(path, (p) => io.base.read(p))) || (await isKustomizePatch(path, (p) => io.head.read(p)))) {
      const moved = patchMoved(read.base.flavors, read.head.flavors);
      if (moved !== null) out.notFollowed.push(moved);
      continue;
    }
    for (const f of read.base.flavors) base.set(flavorName(f), f);
    for (const f of read.head.flavors) head.set(flavorName(f), f);
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
  // The queues of changed files are the Kueue reader's, which reads a flavor whose labels name no
  // GPU model at a side as a model unknown there: at the same quota that compares as no change,
  // so a flavor whose nodes changed with its model unknown at either side is not followed.
  for (const name of [...named].sort()) {
    const b = base.get(name);
    const h = head.get(name);
    if (b === undefined || h === undefined || (b.labels !== null && b.labels === h.labels)) continue;
    if (baseModels.has(name) && headModels.has(name)) continue;
    const side = baseModels.has(name) ? 'head' : 'base';
    out.notFollowed.push(
      notFollowed(
        h.file,
        h.line,
        [name],
        `its node labels changed and name no GPU model at the ${side}, so what the quotas naming it buy is not known`,
      ),
    );
  }
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
  // A flavor of an unchanged file, read because its module changed, is named at the changed file of that module.
  for (const n of out.notFollowed) {
    if (changedSet.has(n.file)) continue;
    const at = changed.find((p) => isTerraformPath(p) && dirOf(p) === dirOf(n.file));
    if (at === undefined) continue;
    n.needs = `${n.needs} (declared in ${n.file}${n.line === null ? '' : `:${n.line}`}, which this change feeds)`;
    n.file = at;
    n.line = null;
  }
  const unresolved = new Set(out.notFollowed.map((n) => n.file));
  out.followed = files.filter(
    (f) => changedSet.has(f) && !unresolved.has(f) && [...base.values(), ...head.values()].some((x) => x.file === f),
  );
  return out;
}

function empty(): Required<ParseResult> {
  return { decls: [], diagnostics: [], unresolved: [] };
}

function notFollowed(file: string, line: number | null, flavors: readonly string[], needs: string): NotFollowed {
  return { file, line, reason: 'kueue-flavor', subject: `ResourceFlavor ${flavors.join(', ')}`, needs, inputs: [...flavors] };
}

/**
 * The Terraform modules (folders) of the changed Terraform files, each side's `.tf` and `.tfvars`
 * files, and their files that declare a ResourceFlavor: a variable or a tfvars value changed
 * beside an unchanged `kubernetes_manifest` changes the flavor it renders.
 */
async function terraformModules(
  changed: readonly string[],
  io: FlavorFollowIo,
): Promise<{ files: Map<string, { base: SourceFile[]; head: SourceFile[] }>; flavorFiles: string[] }> {
  const out = { files: new Map<string, { base: SourceFile[]; head: SourceFile[] }>(), flavorFiles: [] as string[] };
  const dirs = [...new Set(changed.filter(isTerraformPath).map(dirOf))].sort().slice(0, MAX_MODULES);
  for (const dir of dirs) {
    const paths = (await io.list(dir))
      .filter((p) => isTerraformPath(p) && dirOf(p) === dir)
      .sort()
      .slice(0, MAX_MODULE_FILES);
    const sides = { base: [] as SourceFile[], head: [] as SourceFile[] };
    for (const side of ['base', 'head'] as const)
      for (const path of paths) {
        const text = await io[side].read(path);
        if (text !== null && text.length <= MAX_FILE_CHARS) sides[side].push({ path, text });
      }
    const flavors = [...sides.base, ...sides.head].filter((f) => isTfFile(f.path) && f.text.includes('ResourceFlavor')).map((f) => f.path);
    if (flavors.length === 0) continue;
    out.files.set(dir, sides);
    out.flavorFiles.push(...flavors);
  }
  return out;
}

function flavorName(f: Flavor): string {
  return scalarString(mapGet(mapGet(f.doc.contents, 'metadata'), 'name')) ?? '';
}

function unreadFlavors(path: string, text: string | null): NotFollowed {
  const at = (text ?? '').split('\n').findIndex((l) => l.includes('ResourceFlavor'));
  return {
    file: path,
    line: at < 0 ? null : at + 1,
    reason: 'kueue-flavor',
    subject: 'ResourceFlavor',
    needs:
      'a ResourceFlavor written here could not be read (its carrier, name or values are not known statically), so which GPUs the quotas naming it buy is not known',
    inputs: [path],
  };
}

/**
 * A kustomize patch of a flavor changes the flavor the build makes. Its node labels the same at
 * both sides (a taint or toleration edited) leave the GPUs its queues buy as they were; otherwise
 * the model is the render's, which is not read here: not followed.
 */
function patchMoved(base: readonly Flavor[], head: readonly Flavor[]): NotFollowed | null {
  const labels = (side: readonly Flavor[]) => JSON.stringify(side.map((f) => [flavorName(f), f.labels]));
  if (base.length === head.length && labels(base) === labels(head)) return null;
  const f = head[0] ?? base[0];
  if (f === undefined) return null;
  const names = [...new Set([...base, ...head].map(flavorName))].sort();
  return notFollowed(
    f.file,
    f.line,
    names,
    'it is a kustomize patch whose node labels or name changed; the GPU model of the queues naming the flavor the build makes is not read through the render here',
  );
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
