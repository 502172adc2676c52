import { LineCounter } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
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
