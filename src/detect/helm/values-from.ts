import { LineCounter } from 'yaml';
import { readYaml, toJson, yamlValue } from '../kit/kube-yaml.js';
import type { TreeReader } from '../../domain/index.js';
import type { GitopsInstall } from './gitops-installs.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The data of each ConfigMap or Secret an install's `valuesFrom` names that the files of its own
 * folder hold (at the side `reader` reads), as text: the Flux Kustomization applying the folder
 * creates them, so a change to their data changes what the chart is given, though the values
 * stay unread. Part of what tells a side's unfollowed install from the other's.
 */
async function valuesFromData(
  install: GitopsInstall,
  at: string,
  reader: TreeReader,
  io: { list(dir: string): Promise<string[]> },
): Promise<string[]> {
  const named = (install.unreadWritten ?? []).filter(
    (v): v is Record<string, unknown> => isObj(v) && (v.kind === 'ConfigMap' || v.kind === 'Secret') && typeof v.name === 'string',
  );
  if (named.length === 0) return [];
  const dir = at.lastIndexOf('/') < 0 ? '' : at.slice(0, at.lastIndexOf('/'));
  const out: string[] = [];
  for (const path of (await io.list(dir)).filter((p) => /\.ya?ml$/i.test(p))) {
    const text = await reader.read(path);
    if (text === null || !named.some((v) => text.includes(v.name as string))) continue;
    for (const doc of readYaml(text, new LineCounter(), { lists: true })) {
      const obj = toJson(doc.contents);
      if (!isObj(obj) || !isObj(obj.metadata)) continue;
      const meta = obj.metadata;
      if (named.some((v) => v.kind === obj.kind && v.name === meta.name))
        out.push(JSON.stringify([obj.kind, meta.name, obj.data ?? null, obj.stringData ?? null, obj.binaryData ?? null]));
    }
  }
  return out.sort();
}

/** What an install is given that the review cannot read, as written and (for `valuesFrom` of its folder) as its data. */
export async function unreadInputs(
  install: GitopsInstall,
  at: string,
  reader: TreeReader,
  io: { list(dir: string): Promise<string[]> },
): Promise<unknown[]> {
  return [install.unreadWritten ?? [], await valuesFromData(install, at, reader, io)];
}

/** What an install's `valuesFrom` give, as far as the tree holds them. */
export interface ValuesFromRead {
  /** The values of each entry found, in Flux's order (each merged over the ones before). */
  layers: unknown[];
  /** Entries the tree does not hold once, in the release's namespace, with the key: not followed. */
  unread: string[];
}

const dirOfPath = (path: string) => (path.lastIndexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/')));

/**
 * A HelmRelease's `valuesFrom` read from the ConfigMaps and Secrets beside it (its folder and the
 * folder above, which the Flux Kustomization applying them creates): one object of the kind, name
 * and the release's namespace, the `valuesKey` of its `data` (a Secret's `stringData` over its
 * base64 `data`, as the API server stores it), parsed as values and merged at the root, or set as
 * one value at `targetPath` as Flux's `--set`-style path does. One not found, found twice, or
 * without the key is not read: Flux takes it from the cluster, which the review cannot see.
 */
export async function readValuesFrom(
  install: GitopsInstall,
  reader: TreeReader,
  io: { list(dir: string): Promise<string[]> },
  setAt: (path: string, value: unknown) => Record<string, unknown> | null,
): Promise<ValuesFromRead> {
  const from = install.valuesFrom;
  if (from === undefined) return { layers: [], unread: [] };
  const objects = from.file === undefined ? [] : await objectsNear(from.file, reader, io);
  const out: ValuesFromRead = { layers: [], unread: [] };
  for (const ref of from.refs) {
    const label = `valuesFrom ${ref.kind}/${ref.name}`;
    const matches = objects.filter((o) => o.kind === ref.kind && o.name === ref.name && (o.namespace ?? null) === (from.namespace ?? null));
    const found = matches.length === 1 ? matches[0] : undefined;
    if (found === undefined) {
      // One written with no namespace is given one where it is applied (a kustomization's
      // `namespace`, a Flux Kustomization's `targetNamespace`): which, the review does not know.
      const loose = objects.some((o) => o.kind === ref.kind && o.name === ref.name && o.namespace === null);
      const why =
        matches.length > 1 ? 'more than one in the tree' : loose ? 'in the tree with no namespace' : 'not in the tree beside the release';
      out.unread.push(`${label} (${why})`);
      continue;
    }
    const text = found.data[ref.valuesKey];
    if (text === undefined) {
      out.unread.push(`${label} (no ${ref.valuesKey} in its data)`);
      continue;
    }
    if (ref.targetPath !== null) {
      const set = setAt(ref.targetPath, text);
      if (set === null) out.unread.push(`${label} (targetPath ${ref.targetPath})`);
      else out.layers.push(set);
      continue;
    }
    const value = yamlValue(text);
    if (value === undefined || (value !== null && !isObj(value))) out.unread.push(`${label} (${ref.valuesKey} is no values map)`);
    else if (isObj(value)) out.layers.push(value);
  }
  return out;
}

export interface DataObject {
  kind: string;
  name: string;
  namespace: string | null;
  data: Record<string, string>;
}

/** Where a release's `valuesFrom` are looked up: the folder of the file declaring it, and the folder above. */
export function nearDirs(file: string): string[] {
  const dir = dirOfPath(file);
  return dir === '' ? [''] : [dir, dirOfPath(dir)];
}

async function objectsNear(file: string, reader: TreeReader, io: { list(dir: string): Promise<string[]> }): Promise<DataObject[]> {
  const out: DataObject[] = [];
  for (const d of nearDirs(file)) {
    for (const path of (await io.list(d)).filter((p) => /\.ya?ml$/i.test(p))) {
      const text = await reader.read(path);
      if (text !== null && /\b(ConfigMap|Secret)\b/.test(text)) out.push(...dataObjectsOf(text));
    }
  }
  return out;
}

/** The ConfigMaps and Secrets of a file's documents, with their data as the API server keeps it. */
export function dataObjectsOf(text: string): DataObject[] {
  const out: DataObject[] = [];
  for (const doc of readYaml(text, new LineCounter(), { lists: true })) {
    if (doc.errors.length > 0) continue;
    const obj = toJson(doc.contents);
    if (!isObj(obj) || (obj.kind !== 'ConfigMap' && obj.kind !== 'Secret') || !isObj(obj.metadata)) continue;
    const name = obj.metadata.name;
    const namespace = obj.metadata.namespace;
    if (typeof name !== 'string') continue;
    out.push({
      kind: obj.kind,
      name,
      namespace: typeof namespace === 'string' ? namespace : null,
      data: obj.kind === 'Secret' ? secretData(obj) : strings(obj.data),
    });
  }
  return out;
}

function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** A Secret's data as the API server keeps it: `data` decoded from base64, `stringData` over it. */
function secretData(obj: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(strings(obj.data))) {
    // Not base64 as the API server takes it: left out, so the key is not found and stays unread.
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(v)) continue;
    out[k] = Buffer.from(v.replace(/\s/g, ''), 'base64').toString('utf8');
  }
  return { ...out, ...strings(obj.stringData) };
}
