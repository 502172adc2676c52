import { hclBlocks, localEntries } from './kit/signal-scan/hcl-module.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { jsonBlocks } from './terraform-json-feeds.js';

/**
 * One value-bearing item of a Terraform module: a variable, a local, a resource or data block, a
 * module call, an output, or another top-level block (provider, terraform, moved…).
 */
export interface ReachItem {
  /** How Terraform names it: `var.x`, `local.x`, `aws_instance.gpu`, `data.t.n`, `module.x`, `output.x`. */
  id: string;
  kind: 'var' | 'local' | 'resource' | 'data' | 'module' | 'output' | 'other';
  path: string;
  from: number;
  to: number;
  /** The declared `type` of a variable, as written (`number`, `list(string)`). */
  type?: string;
  /** What it names, with the lines where it names them. */
  refs: Map<string, number[]>;
}

/** A GPU name nothing reads, where it is (terraform-feeds.ts UnreadGpu). */
export interface ReachedGpu {
  path: string;
  line: number;
  token: string;
}

/**
 * Reached a variable of a called module that may name a GPU: what it names is its caller's
 * argument, so the caller answers (with the GPU names it and what it calls leave unread).
 */
export const FROM_CALLER: ReachedGpu = Object.freeze({ path: '', line: 0, token: '' });

/** What the reach asks of the module it walks. */
export interface ReachContext {
  items: readonly ReachItem[];
  /** The line is read (a counted resource, an argument fed to what is read, an output). */
  read: (path: string, line: number) => boolean;
  /** The first GPU name nothing reads in these lines of the file, or null. */
  unreadGpuIn: (path: string, from: number, to: number) => ReachedGpu | null;
  /** A variable whose value, wherever it comes from, cannot name a GPU machine. */
  variableClean: (item: ReachItem) => boolean;
  /** What a module call's argument reaches in the called module (`copies` for its count or for_each). */
  callReaches: (item: ReachItem, line: number) => ReachedGpu | null;
  /** What a module call builds that may hand on a GPU name: its own lines, or what an own module names unread. */
  moduleBuilds: (item: ReachItem) => ReachedGpu | null;
  /** What a variable that may name a GPU stands for: the module's unread GPU, or in a called module what its caller gives (FROM_CALLER). */
  fromCaller: () => ReachedGpu | null;
  /** The module's first unread GPU name, given where the reach cannot be told. */
  fallback: () => ReachedGpu | null;
}

const REF = /\b(?:data\.[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*|[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*)/g;
const TYPE = /^[ \t]*type[ \t]*=[ \t]*(.+?)[ \t]*$/m;
/** A variable's type in Terraform's JSON syntax: `"type": "number"`. */
const JSON_TYPE = /^[ \t]*"type"[ \t]*:[ \t]*"([^"]*)"/m;

/** The items of a module file, HCL or Terraform's JSON syntax, each with what it names by line. */
export function reachItems(path: string, text: string): ReachItem[] {
  const json = path.endsWith('.json');
  const lines = text.split('\n');
  const out: ReachItem[] = [];
  const item = (id: string, kind: ReachItem['kind'], from: number, to: number): ReachItem => ({
    id,
    kind,
    path,
    from,
    to,
    refs: refsIn(lines, from, to),
  });
  const blocks: (HclBlock & { entries?: { name: string; from: number; to: number }[] })[] = json ? jsonBlocks(text) : hclBlocks(text);
  for (const b of blocks) {
    const [a = '', c = ''] = b.labels;
    if (b.type === 'variable') {
      const type = (json ? JSON_TYPE : TYPE).exec(lines.slice(b.from, b.to - 1).join('\n'))?.[1];
      out.push({ ...item(`var.${a}`, 'var', b.from, b.to), ...(type === undefined ? {} : { type }) });
    } else if (b.type === 'locals')
      for (const e of b.entries ?? localEntries(text, b)) out.push(item(`local.${e.name}`, 'local', e.from, e.to));
    else if (b.type === 'resource') out.push(item(`${a}.${c}`, 'resource', b.from, b.to));
    else if (b.type === 'data') out.push(item(`data.${a}.${c}`, 'data', b.from, b.to));
    else if (b.type === 'module') out.push(item(`module.${a}`, 'module', b.from, b.to));
    else if (b.type === 'output') out.push(item(`output.${a}`, 'output', b.from, b.to));
    else out.push(item(`${b.type}:${String(b.from)}`, 'other', b.from, b.to));
  }
  return out;
}

function refsIn(lines: readonly string[], from: number, to: number): Map<string, number[]> {
  const refs = new Map<string, number[]>();
  for (let n = from; n <= to; n++) {
    for (const m of (lines[n - 1] ?? '').matchAll(REF)) {
      // `module.x.out` and `var.x.field` name `module.x` and `var.x`; a resource's attribute names the resource.
      const id = m[0];
      const at = refs.get(id) ?? [];
      if (!at.includes(n)) at.push(n);
      refs.set(id, at);
    }
  }
  return refs;
}

/**
 * The first GPU name nothing reads that a value reaches: walking from the value to what uses it
 * where that use is not read (a local, a resource, a call's argument, and what uses those in
 * turn), each block reached is GPU capacity when it names a GPU nobody reads, or when what it
 * is built from does (a variable whose value may name one, a launch template naming one). A value
 * reaching only CPU groups and what names no GPU reaches null. Where a use lies outside every
 * item, the reach cannot be told and is the module's (fallback).
 */
export function reachedGpu(start: string, ctx: ReachContext): ReachedGpu | null {
  // Blocks of one address in several files (a primary and its `*_override.tf`) are one block as
  // Terraform merges them: what either names is the block's.
  const byId = new Map<string, ReachItem[]>();
  for (const i of ctx.items) byId.set(i.id, [...(byId.get(i.id) ?? []), i]);
  const tainted = taintOf(ctx, byId, start);
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const user of ctx.items) {
      if (user.id === id) continue;
      const lines = user.refs.get(id) ?? refsBelow(user, id);
      for (const line of lines) {
        if (ctx.read(user.path, line) || user.kind === 'var' || user.kind === 'output' || user.kind === 'other') continue;
        if (user.kind === 'module') {
          const found = ctx.callReaches(user, line);
          if (found !== null) return found;
          continue;
        }
        const gpu = tainted(user);
        if (gpu !== null) return gpu;
        if (!seen.has(user.id)) {
          seen.add(user.id);
          queue.push(user.id);
        }
      }
    }
  }
  return null;
}

/** Lines of `user` naming `id` through an attribute (`aws_launch_template.gpu.id` names `aws_launch_template.gpu`). */
function refsBelow(user: ReachItem, id: string): number[] {
  const out: number[] = [];
  for (const [ref, lines] of user.refs) if (ref.startsWith(`${id}.`)) out.push(...lines);
  return out;
}

/** Whether an item is GPU capacity by what it names or what it is built from, memoised per walk. */
function taintOf(ctx: ReachContext, byId: ReadonlyMap<string, ReachItem[]>, start: string): (item: ReachItem) => ReachedGpu | null {
  const memo = new Map<string, ReachedGpu | null>();
  const one = (part: ReachItem): ReachedGpu | null => {
    const found = ctx.unreadGpuIn(part.path, part.from, part.to);
    if (found !== null) return found;
    // The changed value itself names no GPU (else the floor names it); any other variable may, unless known not to.
    if (part.kind === 'var' && part.id !== start && !ctx.variableClean(part)) return ctx.fromCaller();
    // A module's outputs are what it builds: an own module naming a GPU nothing reads may hand one on.
    return part.kind === 'module' ? ctx.moduleBuilds(part) : null;
  };
  const visit = (item: ReachItem): ReachedGpu | null => {
    const known = memo.get(item.id);
    if (known !== undefined) return known;
    // A cycle is no GPU by itself: what it names is found where it is named.
    memo.set(item.id, null);
    const parts = byId.get(item.id) ?? [item];
    let found: ReachedGpu | null = null;
    for (const part of parts) if (found === null) found = one(part);
    for (const ref of found === null ? new Set(parts.flatMap((p) => [...p.refs.keys()])) : []) {
      const dep =
        byId.get(ref)?.[0] ??
        byId.get(
          ref
            .split('.')
            .slice(0, ref.startsWith('data.') ? 3 : 2)
            .join('.'),
        )?.[0];
      if (dep === undefined || dep.id === item.id) continue;
      found = visit(dep);
      if (found !== null) break;
    }
    memo.set(item.id, found);
    return found;
  };
  return visit;
}
