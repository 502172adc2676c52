import { MAX_FILE_CHARS } from '../domain/index.js';
import type { TreeReader } from '../domain/index.js';
import { lineCount } from './kit/lines.js';
import { readManifests } from './kit/manifests.js';
import { dirOf } from './kit/paths.js';
import { fileFormat } from './kit/yaml-segments.js';
import { mapGet, scalarString, seqItems } from './kit/yaml-nodes.js';
import type { Accounting, ParseOutcome } from './parser.js';

/** Files of the folders looked into for one changed file's missing objects: each is a read. */
const MAX_CONTEXT_FILES = 24;
// A cheap look for an object that names another: what a scaler scales, where a machine group's
// machines are described, the CloudProfile that says a Gardener machine type's GPUs, the machine
// config a Rancher machine pool makes its machines from.
const REFERS = /scaleTargetRef|infrastructureRef|cloudProfile|machineConfigRef/;
const MACHINE_GROUPS = new Set(['MachineSet', 'MachineDeployment', 'MachinePool']);
/**
 * A CloudProfile is cluster-wide, kept once for every Shoot of the landscape (`garden/profiles/`),
 * seldom beside a Shoot: one not found near is looked for in the tree, within these bounds
 * (folders listed, files read), files whose path says profile read first.
 */
const TREE_WIDE_KINDS = new Set(['CloudProfile']);
const MAX_TREE_DIRS = 500;
const MAX_TREE_FILES = 48;
const SKIP_DIR = /(^|\/)(\.git|node_modules|vendor|\.terraform|\.terragrunt-cache|templates)$/;

export interface ContextIo {
  read: TreeReader['read'];
  list(dir: string): Promise<string[]>;
  dirs?(dir: string): Promise<string[]>;
}

interface Ref {
  kind: string;
  name: string;
}

/**
 * The objects a file's objects name but the file does not hold: the machine group a scaler
 * (MachineAutoscaler, KEDA ScaledObject, HorizontalPodAutoscaler) scales, the machine template a
 * Cluster API MachineDeployment or MachinePool takes its machine type from, the CloudProfile whose
 * machine types a Gardener Shoot names, the machine configs of a Rancher Cluster's pools. GitOps repositories
 * often keep each object in a file of its own, side by side.
 */
function missingRefs(path: string, text: string): Ref[] {
  if (!REFERS.test(text)) return [];
  const manifests = readManifests(path, text, (t) => REFERS.test(t) || /\bkind\b/.test(t)).manifests.filter((m) => !m.embedded);
  const held = new Set(manifests.map((m) => `${m.kind ?? ''}/${m.name ?? ''}`));
  const refs: Ref[] = [];
  const add = (ref: unknown) => {
    const kind = scalarString(mapGet(ref, 'kind'));
    const name = scalarString(mapGet(ref, 'name'));
    if (kind && name && !held.has(`${kind}/${name}`)) refs.push({ kind, name });
  };
  for (const m of manifests) {
    const spec = mapGet(m.root, 'spec');
    const target = mapGet(spec, 'scaleTargetRef');
    if (MACHINE_GROUPS.has(scalarString(mapGet(target, 'kind')) ?? '')) add(target);
    if ((m.kind === 'MachineDeployment' || m.kind === 'MachinePool') && (m.apiVersion ?? '').startsWith('cluster.x-k8s.io/'))
      add(mapGet(mapGet(mapGet(spec, 'template'), 'spec'), 'infrastructureRef'));
    if (m.kind === 'Cluster' && (m.apiVersion ?? '').startsWith('provisioning.cattle.io/'))
      for (const pool of seqItems(mapGet(mapGet(spec, 'rkeConfig'), 'machinePools'))) add(mapGet(pool, 'machineConfigRef'));
    if (m.kind === 'Shoot' && (m.apiVersion ?? '').startsWith('core.gardener.cloud/')) {
      const profile = scalarString(mapGet(mapGet(spec, 'cloudProfile'), 'name')) ?? scalarString(mapGet(spec, 'cloudProfileName'));
      const kind = scalarString(mapGet(mapGet(spec, 'cloudProfile'), 'kind')) ?? 'CloudProfile';
      if (profile && kind === 'CloudProfile' && !held.has(`${kind}/${profile}`)) refs.push({ kind, name: profile });
    }
  }
  return refs;
}

/** Whether a text declares the object: its kind, and its name as a `name:` value. */
function declares(path: string, text: string, ref: Ref): boolean {
  if (!text.includes(ref.kind) || !text.includes(ref.name)) return false;
  return readManifests(path, text, (t) => t.includes(ref.kind)).manifests.some(
    (m) => !m.embedded && m.kind === ref.kind && m.name === ref.name,
  );
}

/**
 * The texts of the files beside `path` (its folder, then the folders beside it) that declare the
 * objects its objects name and it does not hold, at the side `io` reads: read with the file, a
 * scaler counts its set's machines, a MachineDeployment its template's type. None when nothing is
 * missing or nothing near declares it; the reader then says what it could not follow.
 */
export async function contextOf(path: string, text: string, io: ContextIo): Promise<string[]> {
  const refs = missingRefs(path, text);
  if (refs.length === 0) return [];
  const dir = dirOf(path);
  const parent = dirOf(dir);
  const folders = [dir, ...(dir !== '' && io.dirs ? (await io.dirs(parent)).filter((d) => d !== dir).sort() : [])];
  const out: string[] = [];
  let left = refs;
  let reads = 0;
  for (const folder of folders) {
    for (const file of (await io.list(folder)).sort()) {
      if (file === path || fileFormat(file) !== 'yaml') continue;
      if (left.length === 0 || reads >= MAX_CONTEXT_FILES) return out;
      reads++;
      const other = await io.read(file);
      if (other === null || other.length > MAX_FILE_CHARS) continue;
      const found = left.filter((r) => declares(file, other, r));
      if (found.length === 0) continue;
      out.push(other);
      left = left.filter((r) => !found.includes(r));
    }
  }
  return left.some((r) => TREE_WIDE_KINDS.has(r.kind)) ? [...out, ...(await inTree(path, left, folders, io))] : out;
}

/** The files of the tree outside the folders already read that declare the tree-wide objects left. */
async function inTree(path: string, refs: readonly Ref[], done: readonly string[], io: ContextIo): Promise<string[]> {
  if (!io.dirs) return [];
  let left = refs.filter((r) => TREE_WIDE_KINDS.has(r.kind));
  const candidates: string[] = [];
  const queue = [''];
  for (let dirs = 0; queue.length > 0 && dirs < MAX_TREE_DIRS; dirs++) {
    const dir = queue.shift() as string;
    if (!done.includes(dir)) candidates.push(...(await io.list(dir)).filter((f) => f !== path && fileFormat(f) === 'yaml'));
    queue.push(...(await io.dirs(dir)).filter((d) => !SKIP_DIR.test(d)).sort());
  }
  const likely = (f: string) => Number(/profile/i.test(f));
  const out: string[] = [];
  for (const file of candidates.sort((a, b) => likely(b) - likely(a)).slice(0, MAX_TREE_FILES)) {
    if (left.length === 0) break;
    const other = await io.read(file);
    if (other === null || other.length > MAX_FILE_CHARS) continue;
    const found = left.filter((r) => declares(file, other, r));
    if (found.length === 0) continue;
    out.push(other);
    left = left.filter((r) => !found.includes(r));
  }
  return out;
}

/** The text read with its context: the file, then each context file as further documents. */
export function withContext(text: string, context: readonly string[]): string {
  return context.reduce((all, other) => `${all}${all.endsWith('\n') ? '' : '\n'}---\n${other}`, text);
}

/** What a reading of a file with its context says of the file itself: findings on its own lines. */
export function ownPart<T extends ParseOutcome & Accounting>(result: T, text: string): T {
  const last = lineCount(text);
  const own = (line: number | null) => line === null || line <= last;
  return {
    ...result,
    decls: result.decls.filter((d) => own(d.line)),
    diagnostics: result.diagnostics.filter((d) => own(d.line)),
    unresolved: (result.unresolved ?? []).filter((u) => own(u.line)),
    ...(result.notFollowed ? { notFollowed: result.notFollowed.filter((n) => own(n.line)) } : {}),
    ...(result.accounted
      ? { accounted: result.accounted.filter((a) => a.from <= last).map((a) => ({ ...a, to: Math.min(a.to, last) })) }
      : {}),
  };
}
