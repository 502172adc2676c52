import fc from 'fast-check';
import { LineCounter } from 'yaml';
import { describe, expect, it } from 'vitest';
import { detectFile } from '../../src/detect/detect-file.js';
import { readYaml, toJson } from '../../src/detect/kit/kube-yaml.js';
import type { Json } from '../../src/detect/kit/kube-yaml.js';
import type { ParseOutcome } from '../../src/detect/parser.js';
import { corpusFiles } from './corpus.js';
import { loadAllReal } from './real-fixtures.js';

/**
 * Real capacity manifests written another way kubectl reads the same: in a `List`, with quotas
 * behind aliases and merge keys, YAML 1.1 spellings of numbers and booleans, keys reordered, flow
 * style, comments that name GPUs, document separators with comments. The capacity read must not
 * change.
 */

interface Style {
  list: boolean;
  /** Per number: how to spell an integer. */
  spell: number[];
  /** Per map: reorder keys, write it in flow style, move it behind an anchor and a merge key. */
  shuffle: number[];
  flow: number[];
  merge: number[];
  /** Per scalar: behind an anchor and an alias. */
  alias: number[];
  comments: boolean;
}

const pick = (xs: readonly number[], i: number) => xs[i % Math.max(1, xs.length)] ?? 0;

class Writer {
  private n = 0;
  private maps = 0;
  private anchors = 0;
  readonly defs: string[] = [];

  /** `anchors`: anchored values go to `defs` (a List's field); otherwise merges are written inline. */
  constructor(
    private readonly s: Style,
    private readonly useDefs: boolean,
  ) {}

  private next(): number {
    return this.n++;
  }

  /** An integer as go-yaml v2 reads it back: decimal, 0o, 0x, 0b, leading-zero octal, underscores. */
  private int(v: number): string {
    if (!Number.isSafeInteger(v) || v < 0) return String(v);
    switch (pick(this.s.spell, this.next()) % 7) {
      case 1:
        return `0o${v.toString(8)}`;
      case 2:
        return `0x${v.toString(16)}`;
      case 3:
        return `0b${v.toString(2)}`;
      case 4:
        return v === 0 ? '0' : `0${v.toString(8)}`;
      case 5:
        return String(v).replace(/\B(?=(\d{3})+$)/g, '_');
      case 6:
        return `+${v}`;
      default:
        return String(v);
    }
  }

  private scalar(v: Json): string {
    let text: string;
    if (typeof v === 'number') text = Number.isInteger(v) ? this.int(v) : String(v);
    else if (typeof v === 'boolean')
      text = v ? ['true', 'yes', 'on', 'True', 'Y'][this.next() % 5]! : ['false', 'no', 'off', 'N'][this.next() % 4]!;
    else if (v === null) text = ['null', '~', 'Null'][this.next() % 3]!;
    else text = JSON.stringify(v);
    if (this.useDefs && pick(this.s.alias, this.next()) % 5 === 0) {
      const name = `s${this.anchors++}`;
      this.defs.push(`  - &${name} ${text}`);
      return `*${name}`;
    }
    return text;
  }

  /** A flow value: one line. */
  flowValue(v: Json): string {
    if (Array.isArray(v)) return `[${v.map((x) => this.flowValue(x)).join(', ')}]`;
    if (v !== null && typeof v === 'object')
      return `{${this.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}: ${this.flowValue(x)}`)
        .join(', ')}}`;
    return this.scalar(v);
  }

  private entries(v: { [k: string]: Json }): [string, Json][] {
    const out = Object.entries(v);
    if (pick(this.s.shuffle, this.maps) % 2 === 1) out.reverse();
    return out;
  }

  /** A block value at an indentation, as the lines after its key (or the text after `key: `). */
  block(v: Json, indent: number): { inline: string } | { lines: string[] } {
    if (Array.isArray(v)) {
      if (v.length === 0) return { inline: '[]' };
      const lines: string[] = [];
      for (const item of v) {
        const sub = this.block(item, indent + 2);
        if ('inline' in sub) lines.push(`${' '.repeat(indent)}- ${sub.inline}`);
        else {
          const [first = '', ...rest] = sub.lines;
          lines.push(`${' '.repeat(indent)}- ${first.trimStart()}`, ...rest);
        }
      }
      return { lines };
    }
    if (v !== null && typeof v === 'object') {
      const m = this.maps++;
      if (Object.keys(v).length === 0) return { inline: '{}' };
      if (pick(this.s.flow, m) % 4 === 0) return { inline: this.flowValue(v) };
      const pad = ' '.repeat(indent);
      const lines: string[] = [];
      if (this.s.comments && m % 3 === 0) lines.push(`${pad}# nvidia.com/gpu: 9999 nominalQuota: 512 (a comment)`);
      const entries = this.entries(v);
      if (pick(this.s.merge, m) % 3 === 0) {
        // The map's values behind an anchor, merged in; one key kept explicit after the merge key.
        const name = `m${this.anchors++}`;
        const [own, ...merged] = entries;
        if (merged.length > 0) {
          const value = this.flowValue(Object.fromEntries(merged));
          if (this.useDefs) this.defs.push(`  - &${name} ${value}`);
          lines.push(`${pad}<<: ${this.useDefs ? `*${name}` : `&${name} ${value}`}`);
          if (own) lines.push(...this.pair(own[0], own[1], indent));
          return { lines };
        }
      }
      for (const [k, x] of entries) lines.push(...this.pair(k, x, indent));
      return { lines };
    }
    return { inline: this.scalar(v) };
  }

  private pair(k: string, x: Json, indent: number): string[] {
    const pad = ' '.repeat(indent);
    const sub = this.block(x, indent + 2);
    return 'inline' in sub ? [`${pad}${JSON.stringify(k)}: ${sub.inline}`] : [`${pad}${JSON.stringify(k)}:`, ...sub.lines];
  }
}

/** The documents written in the style; anchors are defined in a field of the List the applier ignores. */
function rewrite(objects: Json[], style: Style): string {
  const w = new Writer(style, style.list);
  if (style.list) {
    const items = w.block(objects, 2);
    const body = 'inline' in items ? [`items: ${items.inline}`] : ['items:', ...items.lines];
    const defs = w.defs.length > 0 ? ['x-definitions:', ...w.defs] : [];
    return ['# GPU capacity, as a List', 'apiVersion: v1', 'kind: List', ...defs, ...body, ''].join('\n');
  }
  return objects
    .map((o) => {
      const doc = w.block(o, 0);
      return `--- # nvidia.com/gpu: 64\n${('inline' in doc ? [doc.inline] : doc.lines).join('\n')}\n`;
    })
    .join('');
}

/** What the readers find, without lines: the rewrite moves them. */
function capacity(r: ParseOutcome): string[] {
  return [
    ...r.decls.map((d) => `${d.kind} ${d.name} ${d.gpus} ${d.gpuModel ?? ''}`),
    ...(r.unresolved ?? []).map((u) => `${u.kind} ${u.name} unknown`),
    ...r.diagnostics.filter((d) => d.severity === 'error').map((d) => `error ${d.message.slice(0, 40)}`),
  ].sort();
}

// Kubernetes objects kubectl applies (eksctl, Cluster Toolkit and chart values are read by other programs).
const KUBECTL_API = /^(?!eksctl\.io)[\w.-]+\.[\w.-]+\/v\w+$|^v1$/;

function samples(): { path: string; objects: Json[]; original: ParseOutcome }[] {
  const files = [
    ...corpusFiles().map((f) => [`corpus/${f.path}`, f.text] as const),
    ...Object.entries(loadAllReal()).map(([p, t]) => [`real/${p}`, t] as const),
  ].filter(([p, t]) => /\.ya?ml$/.test(p) && !t.includes('{{') && !/kustomization\.ya?ml$|values/.test(p));
  const out: { path: string; objects: Json[]; original: ParseOutcome }[] = [];
  for (const [path, text] of files) {
    const docs = readYaml(text, new LineCounter(), { lists: true });
    if (docs.some((d) => d.errors.length > 0 || d.rejections.length > 0)) continue;
    const objects = docs
      .map((d) => toJson(d.contents))
      .filter((o): o is { [k: string]: Json } => o !== null && typeof o === 'object' && !Array.isArray(o));
    if (objects.length === 0 || !objects.every((o) => typeof o.apiVersion === 'string' && KUBECTL_API.test(o.apiVersion))) continue;
    const original = detectFile(path, text);
    if (original.decls.length === 0) continue;
    out.push({ path, objects, original });
  }
  return out;
}

const SAMPLES = samples();
const nats = fc.array(fc.nat(20), { minLength: 1, maxLength: 12 });
const STYLE = fc.record({ list: fc.boolean(), spell: nats, shuffle: nats, flow: nats, merge: nats, alias: nats, comments: fc.boolean() });

describe('capacity manifests rewritten as kubectl reads them the same', () => {
  it('has real manifests to rewrite', () => {
    expect(SAMPLES.length).toBeGreaterThan(15);
  });

  it.each(SAMPLES.map((s) => [s.path, s] as const))('%s', (_path, sample) => {
    const want = capacity(sample.original);
    fc.assert(
      fc.property(STYLE, (style) => {
        const text = rewrite(sample.objects, style);
        const got = detectFile(sample.path, text);
        expect(capacity(got), text).toEqual(want);
      }),
      { numRuns: 12 },
    );
  });
});
