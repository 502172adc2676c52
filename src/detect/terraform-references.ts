import type { NotFollowed, TreeReader } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import type { FileAccounting } from './kit/signal-scan/account.js';
import { hclBlocks } from './kit/signal-scan/hcl-module.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { isTfFile } from './terraform/tf-json.js';
import { callersOf } from './terraform/module-callers.js';
import type { CallerIo } from './terraform/module-callers.js';
import { ownModuleDir } from './terraform-feeds.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * Terraform resources that take their machines from another resource: an Auto Scaling group from
 * its launch template, a managed instance group from its instance template, a node group from its
 * launch template. The sizing block names no GPU; the block it refers to does, in a form no reader
 * accounts for. A changed block that refers to such a block (by its address, `aws_launch_template.gpu`)
 * is not followed, wherever in the module that block is written, so a size changed in a file of
 * its own is never passed as no capacity.
 */

/** Files of the module read at most to find what a changed block refers to. */
export const MAX_FILES = 200;
/** `type.name` and `data.type.name`: a resource's address in an expression (the type holds an underscore). */
const ADDRESS = /(?<![\w.-])(data\.)?([a-z][a-z0-9]*_[a-z0-9_]+)\.([A-Za-z_][\w-]*)/g;
/** Resource types that define the machines others create: a label naming GPUs there names their machines. */
const MACHINE_TEMPLATE = /(?:launch_template|launch_configuration|instance_template|instance_configuration)$/;
/** Blocks whose change reaches no capacity whatever they refer to: what a module shows, checks or moves. */
const NOT_SIZING = new Set(['output', 'moved', 'removed', 'import', 'check', 'terraform', 'provider']);

export interface ReferenceSide {
  reader: TreeReader;
  list: (dir: string) => Promise<string[]>;
  /** What the parsers of this side account for, by file. */
  accounting: ReadonlyMap<string, FileAccounting>;
}

/**
 * The notes on a changed HCL Terraform file, at one side: for each top-level block that differs
 * from the other side's, the first block of the module it refers to that names a GPU no reader
 * accounts for.
 */
export async function gpuReferenceNotes(file: string, text: string, other: string | null, side: ReferenceSide): Promise<NotFollowed[]> {
  if (!isTfFile(file) || file.endsWith('.json')) return [];
  const changed = changedBlocks(text, other);
  if (changed.length === 0) return [];
  const refs = new Map<string, HclBlock>();
  const lines = text.split('\n');
  for (const block of changed) {
    const body = lines.slice(block.from - 1, block.to).join('\n');
    for (const m of body.matchAll(ADDRESS)) {
      const address = `${m[1] ?? ''}${m[2] ?? ''}.${m[3] ?? ''}`;
      if (address !== ownAddress(block) && !refs.has(address)) refs.set(address, block);
    }
  }
  if (refs.size === 0) return [];
  const out: NotFollowed[] = [];
  const dir = dirOf(file);
  const files = (await side.list(dir)).filter((p) => dirOf(p) === dir && isTfFile(p) && !p.endsWith('.json'));
  const seen = new Set<string>();
  for (const path of [file, ...files.filter((p) => p !== file)].slice(0, MAX_FILES)) {
    const body = path === file ? text : await side.reader.read(path);
    if (body === null) continue;
    const signals = accountSignals(path, body, side.accounting.get(path)).signals.filter((s) => s.by === null);
    if (signals.length === 0) continue;
    for (const target of hclBlocks(body)) {
      const address = ownAddress(target);
      const from = address === null ? undefined : refs.get(address);
      if (from === undefined || address === null || seen.has(address)) continue;
      // A GPU name in the body (an instance type); in the labels alone (`nebius_compute_v1_gpu_cluster`,
      // a template named `gpu`) only a template of machines says its machines are GPU ones.
      const gpu =
        signals.find((s) => s.line > target.from && s.line <= target.to) ??
        (MACHINE_TEMPLATE.test(target.labels[0] ?? '') ? signals.find((s) => s.line === target.from) : undefined);
      if (gpu === undefined) continue;
      seen.add(address);
      out.push({
        file,
        line: from.from,
        reason: 'gpu-reference',
        subject: ownAddress(from) ?? from.type,
        needs: `${address} (${path}:${target.from})`,
        inputs: [gpu.token],
      });
    }
  }
  return out;
}

/** `type.name` of a resource block, `data.type.name` of a data block; null for other blocks. */
export function ownAddress(block: HclBlock): string | null {
  if (block.type === 'resource' && block.labels.length === 2) return `${block.labels[0] ?? ''}.${block.labels[1] ?? ''}`;
  if (block.type === 'data' && block.labels.length === 2) return `data.${block.labels[0] ?? ''}.${block.labels[1] ?? ''}`;
  return null;
}

/** The blocks of `text` whose lines differ from the block of the same header in `other` (all of them when it has none). */
export function changedBlocks(text: string, other: string | null): HclBlock[] {
  const key = (b: HclBlock) => JSON.stringify([b.type, b.labels]);
  const bodies = (t: string) => {
    const lines = t.split('\n');
    return new Map(hclBlocks(t).map((b) => [key(b), lines.slice(b.from - 1, b.to).join('\n')]));
  };
  const before = other === null ? new Map<string, string>() : bodies(other);
  const lines = text.split('\n');
  return hclBlocks(text).filter((b) => !NOT_SIZING.has(b.type) && before.get(key(b)) !== lines.slice(b.from - 1, b.to).join('\n'));
}

const MODULE_SOURCE = /^[ \t]*source[ \t]*=[ \t]*"([^"]*)"/m;

/**
 * The notes on a changed HCL file of a module whose changed `output` a caller near it (a folder
 * that calls it by path or by the repository's URL: module-callers.ts) reads into a block naming
 * GPUs: `node_count = module.sizes.gpu_nodes`. No reader evaluates a module's outputs, so the
 * pool's count is unknown at both sides and its file unchanged: the change is named on the output.
 */
export async function outputUseNotes(
  file: string,
  texts: { before: string | null; after: string | null },
  io: CallerIo,
): Promise<NotFollowed[]> {
  if (!isTfFile(file) || file.endsWith('.json')) return [];
  const outputs = changedOutputs(texts.before, texts.after);
  if (outputs.size === 0) return [];
  const moduleDir = dirOf(file);
  const out: NotFollowed[] = [];
  for (const caller of await callersOf(moduleDir, io)) {
    const files = (await io.list(caller)).filter((p) => dirOf(p) === caller && isTfFile(p) && !p.endsWith('.json')).slice(0, MAX_FILES);
    const texts = new Map<string, string>();
    for (const p of files) texts.set(p, (await io.head.read(p)) ?? '');
    // The names this folder calls the module by.
    const names: string[] = [];
    for (const text of texts.values()) {
      const lines = text.split('\n');
      for (const b of hclBlocks(text).filter((b) => b.type === 'module' && b.labels.length === 1)) {
        const source = MODULE_SOURCE.exec(lines.slice(b.from - 1, b.to).join('\n'))?.[1] ?? '';
        if (ownModuleDir(source.replace(/[?#].*$/, '').replace(/\/\/+/g, '/'), caller, io.repositories ?? []) === moduleDir)
          names.push(b.labels[0] ?? '');
      }
    }
    if (names.length === 0) continue;
    const use = new RegExp(
      `\\bmodule\\.(${names.map(escapeRegex).join('|')})(?:\\[[^\\]]*\\])?\\.(${[...outputs].map(escapeRegex).join('|')})\\b`,
    );
    for (const [path, text] of texts) {
      const lines = text.split('\n');
      const signals = accountSignals(path, text).signals.filter((s) => s.by === null || s.by === 'parser');
      for (const b of hclBlocks(text)) {
        if (NOT_SIZING.has(b.type)) continue;
        const m = use.exec(lines.slice(b.from - 1, b.to).join('\n'));
        // In the body: a block whose labels alone name GPUs (`aws_security_group.gpu_nodes`) may be anything.
        const gpu = signals.find((s) => s.line > b.from && s.line <= b.to);
        if (m === null || gpu === undefined) continue;
        out.push({
          file,
          line: null,
          reason: 'gpu-reference',
          subject: `output.${m[2] ?? ''}`,
          needs: `${ownAddress(b) ?? b.type} (${path}:${b.from}), which reads module.${m[1] ?? ''}.${m[2] ?? ''}`,
          inputs: [gpu.token],
        });
      }
    }
  }
  return out;
}

/** The `output` blocks whose lines differ between the sides, added and removed ones too. */
function changedOutputs(before: string | null, after: string | null): Set<string> {
  const bodies = (t: string | null) => {
    if (t === null) return new Map<string, string>();
    const lines = t.split('\n');
    return new Map(
      hclBlocks(t)
        .filter((b) => b.type === 'output')
        .map((b) => [b.labels[0] ?? '', lines.slice(b.from - 1, b.to).join('\n')]),
    );
  };
  const [a, b] = [bodies(before), bodies(after)];
  return new Set([...a.keys(), ...b.keys()].filter((k) => a.get(k) !== b.get(k)));
}
