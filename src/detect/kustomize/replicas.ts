import { LineCounter } from 'yaml';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { resolvePath } from './kustomization.js';
import type { Kustomization } from './kustomization.js';
import { isObject, jsonText } from './patch-apply.js';
import type { RenderNote } from './render-note.js';

/** Where a `replicas` entry writes its count: a kind (and group) and a slash-separated path. */
interface ReplicaFieldSpec {
  kind: string;
  group?: string;
  path: string;
}

// kustomize's built-in field specs for replicas (api/konfig/builtinpluginconsts/replicas.go).
const BUILT_IN: readonly ReplicaFieldSpec[] = ['Deployment', 'ReplicationController', 'ReplicaSet', 'StatefulSet'].map((kind) => ({
  kind,
  path: 'spec/replicas',
}));

export interface ReplicaFieldSpecs {
  specs: ReplicaFieldSpec[];
  /** A configuration file could not be read: kinds it may add are unknown. */
  incomplete: boolean;
}

/** The built-in field specs, and those the kustomization's `configurations` add under `replicas`. */
export function replicaFieldSpecs(k: Kustomization, files: ReadonlyMap<string, string>, notes: RenderNote[]): ReplicaFieldSpecs {
  const specs = [...BUILT_IN];
  let incomplete = false;
  for (const ref of k.spec.configurations ?? []) {
    const path = resolvePath(k.dir, ref);
    const text = path === null ? undefined : files.get(path);
    if (text === undefined) {
      incomplete = true;
      notes.push({
        file: k.path,
        line: 1,
        severity: 'info',
        message: `configuration ${ref} could not be read; kinds it lets replicas scale are not known`,
      });
      continue;
    }
    const [doc] = readYaml(text, new LineCounter(), { dialect: 'kustomize' });
    const value = doc && doc.errors.length === 0 ? toJson(doc.contents) : null;
    const list = isObject(value) && Array.isArray(value.replicas) ? value.replicas : [];
    for (const fs of list) {
      if (!isObject(fs) || typeof fs.kind !== 'string' || typeof fs.path !== 'string') continue;
      specs.push({
        kind: fs.kind,
        path: fs.path.replace(/^\/+/, ''),
        ...(typeof fs.group === 'string' ? { group: jsonText(fs.group) } : {}),
      });
    }
  }
  return { specs, incomplete };
}
