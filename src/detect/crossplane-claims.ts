import type { NotFollowed } from '../domain/index.js';
import { readManifests } from './kit/manifests.js';
import { mapGet, scalarString } from './kit/yaml-nodes.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { dirOf } from './kit/paths.js';

/**
 * Crossplane claims and composite resources. A claim (`kind: GpuCluster`, `spec.parameters.nodeCount: 4`)
 * names no GPU: the Composition its definition selects turns it into node groups, and that is where
 * the GPU machine type is written (`instanceTypes: [p4d.24xlarge]`, patched from the claim's fields,
 * or set in a function's input). No parser renders Compositions, so a changed claim whose
 * Composition in this repository names a GPU is not followed, naming the Composition and the GPU.
 *
 * Compositions are looked for where Crossplane packages keep them first: in the folders of the
 * claim's ancestors and two levels below each (`examples/claim.yaml` beside
 * `apis/gke/composition.yaml`), four below the root. An object none of those compose is looked up
 * in an index of the whole tree's Compositions by their `compositeTypeRef` (built once per side,
 * bounded): a platform repository may keep its package anywhere. When that walk stops at its
 * bound before finding a Composition for an object whose group the repository defines or composes,
 * the object is not followed, never taken for one with no GPUs.
 */

const CROSSPLANE_GROUP = 'apiextensions.crossplane.io';
/** Folders visited and files read per side of one review, whatever it changes: reads are API calls for the App. */
const MAX_DIRS = 128;
const MAX_READS = 128;
/**
 * From the repository's root the search goes deeper: a platform repository keeps its Compositions
 * in a tree of their own (`platform/apis/gpu-cluster/composition.yaml`), away from the claims.
 */
const ROOT_DEPTH = 4;
/** Names Crossplane packages give the files of their definitions and compositions: read first. */
const LIKELY = /composition|definition|xrd|(?:^|\/)apis?\//i;
const YAML = /\.ya?ml$/i;
/** The walk of the whole tree, once per side of a review: folders visited and YAML files read. */
const MAX_TREE_DIRS = 2000;
const MAX_TREE_READS = 600;
// Not the repository's own configuration: caches, vendored code, and Git's own folder.
const SKIP_DIR = /(^|\/)(\.git|node_modules|vendor|\.terraform|\.terragrunt-cache)$/;

export interface ClaimIo {
  read(path: string): Promise<string | null>;
  list(dir: string): Promise<string[]>;
  dirs?(dir: string): Promise<string[]>;
}

/**
 * One side's reads for every changed file of a review (claimSide): folders and files are read once,
 * and the bounds hold for the review, however many claims it changes.
 */
export interface ClaimSide {
  io: ClaimIo;
  visited: Set<string>;
  files: Set<string>;
  texts: Map<string, Promise<string | null>>;
  /** The whole tree's definitions and compositions, walked once when a claim needs them. */
  tree?: Promise<TreeIndex>;
}

interface TreeIndex {
  found: Found;
  /** The walk stopped at its bound, or the tree cannot be walked: a Composition may be past it. */
  cutOff: boolean;
}

export function claimSide(io: ClaimIo): ClaimSide {
  return { io, visited: new Set(), files: new Set(), texts: new Map() };
}

/** A definition (XRD): the composite kind of a group and the claim kind that stands for it. */
interface Definition {
  group: string;
  kind: string;
  claimKind: string | null;
  path: string;
  from: number;
  to: number;
  text: string;
}

interface Composition {
  group: string;
  kind: string;
  name: string;
  path: string;
  from: number;
  to: number;
  text: string;
}

interface Found {
  definitions: Definition[];
  compositions: Composition[];
}

/** The notes on one changed file: each claim or composite resource whose Composition names a GPU. */
export async function crossplaneClaimNotes(file: string, text: string | null, side: ClaimSide): Promise<NotFollowed[]> {
  if (text === null || !YAML.test(file)) return [];
  const objects = readManifests(file, text, () => true).manifests.filter((m) => customGroup(m.apiVersion) !== null);
  if (objects.length === 0) return [];
  const near = await lookAround(file, side);
  const out: NotFollowed[] = [];
  for (const m of objects) {
    const group = customGroup(m.apiVersion) ?? '';
    const kind = m.kind ?? '';
    let found = near;
    let targets = targetsOf(found, group, kind);
    if (!targets.some((t) => 'name' in t)) {
      // No Composition near the object: the whole tree's, by the composite kind they compose.
      side.tree ??= indexTree(side);
      const tree = await side.tree;
      found = { definitions: [...near.definitions, ...tree.found.definitions], compositions: tree.found.compositions };
      targets = targetsOf(found, group, kind);
      if (!targets.some((t) => 'name' in t) && tree.cutOff && groupKnown(found, group)) {
        out.push({
          file,
          line: m.line,
          reason: 'gpu-reference',
          subject: `${kind} ${m.name ?? ''}`.trim(),
          needs: `the Composition of ${kind} (the search of the tree for it stopped at ${String(MAX_TREE_DIRS)} folders or ${String(MAX_TREE_READS)} YAML files)`,
          inputs: [],
        });
        continue;
      }
    }
    for (const t of targets) {
      const gpu = accountSignals(t.path, t.text).signals.find(
        (s) => s.by === null && s.kind !== 'gpu-key' && s.line >= t.from && s.line <= t.to,
      );
      if (gpu === undefined) continue;
      const what = 'name' in t ? `Composition ${t.name}` : `CompositeResourceDefinition of ${t.kind}`;
      out.push({
        file,
        line: m.line,
        reason: 'gpu-reference',
        subject: `${kind} ${m.name ?? ''}`.trim(),
        needs: `${what} (${t.path}:${String(t.from)})`,
        inputs: [gpu.token],
      });
      break;
    }
  }
  return out;
}

/** What composes an object of the group and kind: its Compositions, then its definition. */
function targetsOf(found: Found, group: string, kind: string): (Composition | Definition)[] {
  // A claim stands for the composite kind its definition names; a composite resource is its own.
  const composite = found.definitions.find((d) => d.group === group && d.claimKind === kind)?.kind ?? kind;
  const definition = found.definitions.find((d) => d.group === group && d.kind === composite);
  return [...found.compositions.filter((c) => c.group === group && c.kind === composite), ...(definition ? [definition] : [])];
}

/** True when the repository defines or composes kinds of the group: its objects are Crossplane's. */
const groupKnown = (found: Found, group: string): boolean =>
  found.definitions.some((d) => d.group === group) || found.compositions.some((c) => c.group === group);

/** The group of an object's apiVersion when it may be a claim or a composite: one with a dot, not Crossplane's own. */
function customGroup(apiVersion: string | null): string | null {
  const slash = apiVersion?.indexOf('/') ?? -1;
  if (apiVersion === null || slash < 0) return null;
  const group = apiVersion.slice(0, slash);
  return group.includes('.') && !group.endsWith('crossplane.io') && !group.endsWith('k8s.io') ? group : null;
}

/** The definitions and compositions in the folders of the file's ancestors, two levels below each (four below the root). */
async function lookAround(file: string, side: ClaimSide): Promise<Found> {
  const { io, visited, files } = side;
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (visited.has(`${String(depth)}:${dir}`) || visited.size >= MAX_DIRS) return;
    visited.add(`${String(depth)}:${dir}`);
    for (const p of await io.list(dir)) if (YAML.test(p)) files.add(p);
    if (depth > 0 && io.dirs) for (const d of await io.dirs(dir)) await visit(d, depth - 1);
  };
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    await visit(dir, dir === '' ? ROOT_DEPTH : 2);
    if (dir === '') break;
  }
  const ordered = [...files].sort((a, b) => Number(LIKELY.test(b)) - Number(LIKELY.test(a)) || a.localeCompare(b));
  const found: Found = { definitions: [], compositions: [] };
  for (const path of ordered.filter((p) => p !== file)) {
    // Files read for an earlier claim are read again from memory; new ones while the review's bound allows.
    if (!side.texts.has(path) && side.texts.size >= MAX_READS) continue;
    let pending = side.texts.get(path);
    if (pending === undefined) {
      pending = io.read(path);
      side.texts.set(path, pending);
    }
    collect(path, await pending, found);
  }
  return found;
}

/**
 * Every definition and composition of the tree, walked breadth first from the root within its
 * bounds; the changed files are among them at this side (a Composition changed beside its claim).
 */
async function indexTree(side: ClaimSide): Promise<TreeIndex> {
  const { io } = side;
  const found: Found = { definitions: [], compositions: [] };
  if (!io.dirs) return { found, cutOff: true };
  const queue = [''];
  let dirs = 0;
  let reads = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (++dirs > MAX_TREE_DIRS) return { found, cutOff: true };
    const yaml = (await io.list(dir)).filter((p) => YAML.test(p));
    if (reads + yaml.length > MAX_TREE_READS) return { found, cutOff: true };
    reads += yaml.length;
    const texts = await Promise.all(yaml.map((p) => side.texts.get(p) ?? io.read(p)));
    texts.forEach((text, i) => collect(yaml[i] ?? '', text, found));
    // A chart's templates are not YAML until rendered, and a Composition is not kept there.
    queue.push(...(await io.dirs(dir)).filter((d) => !SKIP_DIR.test(d) && !/(^|\/)templates$/.test(d)).sort());
  }
  return { found, cutOff: false };
}

/** The definitions and compositions of one file, added to what was found. */
function collect(path: string, text: string | null, found: Found): void {
  {
    if (text === null || !text.includes(CROSSPLANE_GROUP)) return;
    const docs = readManifests(path, text, (t) => t.includes(CROSSPLANE_GROUP)).manifests;
    const ends = docs.map((d, i) => (docs[i + 1]?.line ?? text.split('\n').length + 1) - 1);
    docs.forEach((d, i) => {
      if (!(d.apiVersion ?? '').startsWith(`${CROSSPLANE_GROUP}/`)) return;
      const range = { path, from: d.line, to: ends[i] ?? d.line, text };
      if (d.kind === 'Composition') {
        const ref = mapGet(mapGet(d.root, 'spec'), 'compositeTypeRef');
        const api = scalarString(mapGet(ref, 'apiVersion')) ?? '';
        const kind = scalarString(mapGet(ref, 'kind'));
        if (kind !== null) found.compositions.push({ ...range, group: api.split('/')[0] ?? '', kind, name: d.name ?? '' });
      } else if (d.kind === 'CompositeResourceDefinition') {
        const spec = mapGet(d.root, 'spec');
        const group = scalarString(mapGet(spec, 'group'));
        const kind = scalarString(mapGet(mapGet(spec, 'names'), 'kind'));
        if (group !== null && kind !== null) {
          found.definitions.push({ ...range, group, kind, claimKind: scalarString(mapGet(mapGet(spec, 'claimNames'), 'kind')) });
        }
      }
    });
  }
}
