import { LineCounter } from 'yaml';
import { describe, expect, it } from 'vitest';
import { detectFile } from '../../src/detect/detect-file.js';
import { kubeStringify, readYaml, toJson } from '../../src/detect/kit/kube-yaml.js';
import type { Json } from '../../src/detect/kit/kube-yaml.js';
import type { ParseOutcome, SetParseResult } from '../../src/detect/parser.js';
import { PARSERS } from '../../src/detect/registry.js';
import { corpusFiles } from './corpus.js';
import { loadAllReal } from './real-fixtures.js';

/**
 * Every real capacity manifest kubectl applies, grown (each count under its spec raised) and
 * written instead as its original in a base and a kustomize patch that makes the grown one: a
 * strategic-merge patch inline, in a patch file, in a Component; a JSON 6902 patch through
 * `patches` with a target and through `patchesJson6902`. The overlay must render what the grown
 * manifest declares, kind by kind.
 */

type Obj = { [k: string]: Json };

const KUSTOMIZE = PARSERS.find((p) => p.id === 'kustomize');
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// Kubernetes objects kubectl applies (eksctl, Cluster Toolkit and chart values are read by other programs).
const KUBECTL_API = /^(?!eksctl\.io)[\w.-]+\.[\w.-]+\/v\w+$|^v1$/;

/** The object with every positive integer outside its identity raised by `by`; the pointers changed. */
function grow(value: Json, by: number, at = '', changed: { path: string; value: Json }[] = []): Json {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) {
    changed.push({ path: at, value: value + by });
    return value + by;
  }
  if (Array.isArray(value)) return value.map((v, i) => grow(v, by, `${at}/${i}`, changed));
  if (isObj(value)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) {
      const skip = at === '' && (k === 'apiVersion' || k === 'kind' || k === 'metadata' || k === 'status');
      out[k] = skip ? v : grow(v, by, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, changed);
    }
    return out;
  }
  return value;
}

function samples(): { path: string; objects: Obj[] }[] {
  const files = [
    ...corpusFiles().map((f) => [`corpus/${f.path}`, f.text] as const),
    ...Object.entries(loadAllReal()).map(([p, t]) => [`real/${p}`, t] as const),
  ].filter(([p, t]) => /\.ya?ml$/.test(p) && !t.includes('{{') && !/kustomization\.ya?ml$|values/.test(p));
  const out: { path: string; objects: Obj[] }[] = [];
  for (const [path, text] of files) {
    const docs = readYaml(text, new LineCounter(), { lists: true, dialect: 'kustomize' });
    if (docs.some((d) => d.errors.length > 0 || d.rejections.length > 0)) continue;
    const objects = docs.map((d) => toJson(d.contents)).filter(isObj);
    if (objects.length === 0 || !objects.every((o) => typeof o.apiVersion === 'string' && KUBECTL_API.test(o.apiVersion))) continue;
    // kustomize refuses two objects of one kind and name; and a patch needs a name to find its object.
    const ids = objects.map((o) => `${JSON.stringify(o.kind)}/${isObj(o.metadata) ? JSON.stringify(o.metadata.name) : ''}`);
    if (new Set(ids).size !== ids.length || objects.some((o) => !isObj(o.metadata) || typeof o.metadata.name !== 'string')) continue;
    if (detectFile(path, text).decls.length === 0) continue;
    out.push({ path, objects });
  }
  return out;
}

/** What the readers find, by kind and name, without lines. */
function capacity(r: ParseOutcome | SetParseResult): string[] {
  return [
    ...r.decls.map((d) => `${d.kind} ${d.name} ${d.gpus} ${d.gpuModel ?? ''}`),
    ...(r.unresolved ?? []).map((u) => `${u.kind} ${u.name} unknown`),
  ].sort();
}

type Mode = 'inline strategic merge' | 'patchesStrategicMerge file' | 'component' | 'patches with a target (JSON 6902)' | 'patchesJson6902';
const MODES: readonly Mode[] = [
  'inline strategic merge',
  'patchesStrategicMerge file',
  'component',
  'patches with a target (JSON 6902)',
  'patchesJson6902',
];

const indent = (text: string, n: number) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `${' '.repeat(n)}${l}`)
    .join('\n');

/** The base, and the overlay making `grown` of it with patches of one kind. */
function overlay(
  objects: readonly Obj[],
  grown: readonly Obj[],
  changes: readonly { path: string; value: Json }[][],
  mode: Mode,
): Map<string, string> {
  const files = new Map<string, string>([
    ['base/kustomization.yaml', 'resources:\n  - objects.yaml\n'],
    ['base/objects.yaml', objects.map((o) => kubeStringify(o)).join('---\n')],
  ]);
  const smp = grown.map((g) => {
    const { apiVersion, kind, metadata, ...rest } = g;
    const name = isObj(metadata) ? metadata.name : null;
    return kubeStringify({ apiVersion: apiVersion ?? null, kind: kind ?? null, metadata: { name: name ?? null }, ...rest });
  });
  const targets = objects.map((o) => {
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    return `{group: "${group}", kind: ${JSON.stringify(o.kind)}, name: ${JSON.stringify(isObj(o.metadata) ? o.metadata.name : '')}}`;
  });
  const ops = changes.map((c) => JSON.stringify(c.map((x) => ({ op: 'replace', path: x.path, value: x.value }))));
  let k = 'resources:\n  - ../base\n';
  switch (mode) {
    case 'inline strategic merge':
      k += `patches:\n${smp.map((p) => `  - patch: |-\n${indent(p, 6)}\n`).join('')}`;
      break;
    case 'patchesStrategicMerge file':
      smp.forEach((p, i) => files.set(`overlay/grow-${i}.yaml`, p));
      k += `patchesStrategicMerge:\n${smp.map((_, i) => `  - grow-${i}.yaml\n`).join('')}`;
      break;
    case 'component':
      files.set(
        'component/kustomization.yaml',
        `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n${smp.map((p) => `  - patch: |-\n${indent(p, 6)}\n`).join('')}`,
      );
      k += 'components:\n  - ../component\n';
      break;
    case 'patches with a target (JSON 6902)':
      k += `patches:\n${ops.map((o, i) => `  - target: ${targets[i]}\n    patch: '${o}'\n`).join('')}`;
      break;
    case 'patchesJson6902':
      ops.forEach((o, i) => files.set(`overlay/grow-${i}.json`, o));
      k += `patchesJson6902:\n${ops.map((_, i) => `  - target: ${targets[i]}\n    path: grow-${i}.json\n`).join('')}`;
      break;
  }
  files.set('overlay/kustomization.yaml', k);
  return files;
}

const SAMPLES = samples();

describe('a capacity object grown through a kustomize patch reads as the grown object itself', () => {
  it('has real manifests of several kinds to patch', () => {
    const kinds = new Set(SAMPLES.flatMap((s) => s.objects.map((o) => JSON.stringify(o.kind))));
    expect(SAMPLES.length).toBeGreaterThan(10);
    expect(kinds.size).toBeGreaterThan(5);
  });

  it.each(SAMPLES.flatMap((s) => MODES.map((m) => [s.path, m, s] as const)))('%s, %s', (_path, mode, sample) => {
    const changes: { path: string; value: Json }[][] = [];
    const grown = sample.objects.map((o) => {
      const c: { path: string; value: Json }[] = [];
      const g = grow(o, 3, '', c) as Obj;
      changes.push(c);
      return g;
    });
    const want = capacity(detectFile('grown.yaml', grown.map((o) => kubeStringify(o)).join('---\n')));
    const files = overlay(sample.objects, grown, changes, mode);
    const got = KUSTOMIZE?.parseSet?.([...files].map(([path, text]) => ({ path, text })));
    expect(got && capacity(got), [...files].map(([p, t]) => `# ${p}\n${t}`).join('\n')).toEqual(want);
  });
});
