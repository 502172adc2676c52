import { accountSignals } from './kit/signal-scan/account.js';
import type { Lines } from './kit/lines.js';
import { sharesLines } from './terraform-json-feeds.js';
import { FROM_CALLER, reachedGpu, reachItems } from './terraform-block-reach.js';
import type { ReachContext, ReachItem } from './terraform-block-reach.js';
import type { ReachedGpu as UnreadGpu } from './terraform-block-reach.js';

// Arguments of a module block that are Terraform's, not the module's variables (as terraform-feeds.ts META).
const META = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);

/** A module file as the feed reads it (terraform-feeds.ts ModuleFile): its text, and its calls of this repository's modules. */
interface ModuleFile {
  path: string;
  text: string;
  calls: { block: { from: number }; dir: string | null; args: { name: string; from: number; to: number }[] }[];
}

/** What a called module answers (terraform-feeds.ts ModuleFeeds). */
interface ModuleFeeds {
  unreadGpu: () => UnreadGpu | null;
  reachedFrom: (subject: string) => UnreadGpu | null;
}

/** The per-value reach of a module (terraform-block-reach.ts), over its files as the feed reads them. */
export function valueReach<F extends ModuleFile>(m: {
  files: readonly F[];
  read: (f: F, line: number) => boolean;
  calledModules: ReadonlyMap<string, ModuleFeeds | null>;
  unreadGpu: () => UnreadGpu | null;
  spansOf: (path: string) => Lines[];
  /** A module called by another: its variables are what its caller gives them. */
  called: boolean;
}): (subject: string) => UnreadGpu | null {
  const byPath = new Map(m.files.map((f) => [f.path, f]));
  const items = m.files.flatMap((f) => reachItems(f.path, f.text));
  // Terraform's JSON syntax written with several blocks on a line cannot be told block by block: what it feeds is the module's.
  if (m.files.some((f) => f.path.endsWith('.json') && sharesLines(items.filter((i) => i.path === f.path)))) return () => m.unreadGpu();
  const unread = new Map<string, UnreadGpu[]>();
  const unreadIn = (path: string, from: number, to: number): UnreadGpu | null => {
    let left = unread.get(path);
    if (left === undefined) {
      const f = byPath.get(path);
      left =
        f === undefined
          ? []
          : accountSignals(path, f.text, { spans: m.spansOf(path), anchors: [] })
              .signals.filter((s) => s.by === null && s.kind !== 'gpu-key')
              .map((s) => ({ path, line: s.line, token: s.token }));
      unread.set(path, left);
    }
    return left.find((s) => from <= s.line && s.line <= to) ?? null;
  };
  // A called module's variables are set by its caller: the caller tells what they may name. A
  // root's may be set where this tree does not show (`-var`, `TF_VAR_*`, a variable file elsewhere).
  const fromCaller = (): UnreadGpu | null => (m.called ? FROM_CALLER : m.unreadGpu());
  const callOf = (item: ReachItem) => byPath.get(item.path)?.calls.find((c) => c.block.from === item.from);
  const calledOf = (c: ModuleFile['calls'][number]) => (c.dir === null ? null : (m.calledModules.get(c.dir) ?? null));
  const callReaches = (item: ReachItem, line: number): UnreadGpu | null => {
    const c = callOf(item);
    const arg = c?.args.find((a) => a.from <= line && line <= a.to);
    // A module of another repository, or a line that is no argument: what it feeds is not known here.
    if (c === undefined || arg === undefined) return m.unreadGpu();
    const feeds = calledOf(c);
    // Copies of the module: what it builds, or what its caller gives it to build from.
    if (arg.name === 'count' || arg.name === 'for_each') return feeds?.unreadGpu() ?? m.unreadGpu();
    if (META.has(arg.name)) return null;
    if (feeds === null) return m.unreadGpu();
    const found = feeds.reachedFrom(`var.${arg.name}`);
    return found === FROM_CALLER ? fromCaller() : found;
  };
  const ctx: ReachContext = {
    items,
    read: (path, line) => {
      const f = byPath.get(path);
      return f !== undefined && m.read(f, line);
    },
    unreadGpuIn: unreadIn,
    variableClean: (item) => {
      if (/^(number|bool)$/.test(item.type ?? '')) return true;
      // Any other variable may be set to a GPU type where this folder cannot see it: a variable file
      // in another folder (`-var-file=../envs/prod.tfvars`), `-var`, `TF_VAR_*` or its caller.
      // Only a default that is a number or a bool, with no type widening it, names no GPU.
      return item.type === undefined && numericDefault(byPath.get(item.path)?.text ?? '', item);
    },
    callReaches,
    moduleBuilds: (item) => {
      const c = callOf(item);
      const feeds = c === undefined ? null : calledOf(c);
      return c === undefined ? null : feeds === null ? m.unreadGpu() : feeds.unreadGpu();
    },
    fromCaller,
    fallback: m.unreadGpu,
  };
  const memo = new Map<string, UnreadGpu | null>();
  return (subject) => {
    let found = memo.get(subject);
    if (found !== undefined) return found;
    const [what, name, arg] = subject.split('.');
    if (what === 'module' && arg !== undefined) {
      const item = items.find((i) => i.id === `module.${name ?? ''}`);
      const at = item === undefined ? undefined : callOf(item)?.args.find((a) => a.name === arg);
      found = item === undefined || at === undefined ? m.unreadGpu() : callReaches(item, at.from);
    } else found = reachedGpu(subject, ctx);
    memo.set(subject, found);
    return found;
  };
}

/** The variable block's `default` is a number or a bool (`default = 2`, or `"default": 2` in JSON syntax). */
function numericDefault(text: string, item: ReachItem): boolean {
  return /^[ \t]*(?:default[ \t]*=|"default"[ \t]*:)[ \t]*(-?\d+(\.\d+)?|true|false)[ \t]*,?[ \t]*(#.*|\/\/.*)?$/m.test(
    text
      .split('\n')
      .slice(item.from, item.to - 1)
      .join('\n'),
  );
}
