import { noCapacityContext } from './contexts.js';
import type { NoCapacity } from './contexts.js';
import type { Container, PathNode, PathPoint } from './structure.js';

/** A `helm_release`'s blocks that set one chart value by its path (`set { name = "a.b[0].c" value = … }`). */
const SET_BLOCKS = new Set(['set', 'set_list', 'set_sensitive']);
const NAME = /(?:^|[{,])[ \t]*name[ \t]*=[ \t]*"((?:[^"\\\n]|\\.)*)"/gm;

/**
 * Whether a GPU name at `path` is inside a `helm_release`'s `set` block (as its name or value):
 * there, where it lands in the chart's values is what the block's `name` says, not where it is
 * written in the HCL.
 */
export function inHelmSet(path: PathNode | null): boolean {
  let p = path;
  while (p && !SET_BLOCKS.has(p.key)) p = p.parent;
  return p !== null && p.parent?.parent?.key === 'helm_release' && p.parent.parent.parent?.key === 'resource';
}

/**
 * What the chart value set by the block around `point` shows a GPU name there to be: only where a
 * pod may run (`tolerations[1].key`, `nodeSelector.nvidia\.com/gpu\.present`, `affinity…`) is known to
 * be no capacity. Any other value path (a limit, a count, a pool of a chart that declares nodes) says
 * nothing by its name alone: null, so the name is left to what reads it.
 */
export function helmSetContext(
  point: PathPoint | undefined,
  containers: readonly Container[],
  lines: readonly string[],
  token: string,
): NoCapacity | null {
  // The innermost container that names one value: a `set { … }` block, an item `{ name = …, value = … }`
  // of the list form (`set = [ … ]`); several names on its lines are not told apart.
  for (let i = point?.container ?? -1; i >= 0; i = (containers[i] as Container).parent) {
    const box = containers[i] as Container;
    const names = [
      ...lines
        .slice(box.start - 1, box.end)
        .join('\n')
        .matchAll(NAME),
    ];
    if (names.length > 1) return null;
    const name = names[0]?.[1];
    if (name !== undefined) return scheduling(name, token);
    if (SET_BLOCKS.has(box.key ?? '')) return null;
  }
  return null;
}

function scheduling(name: string, token: string): NoCapacity | null {
  const context = noCapacityContext(valuePath(name.replace(/\\\\/g, '\\')), token);
  return context === 'scheduling' ? context : null;
}

/** A Helm `--set` path (`a.b\.c[0].d`: dots escaped with a backslash belong to the key) as a key path. */
function valuePath(name: string): PathNode | null {
  let node: PathNode | null = null;
  for (const part of name.split(/(?<!\\)\./)) {
    const m = /^(.*?)((?:\[\d+\])*)$/.exec(part);
    const key = (m?.[1] ?? part).replace(/\\\./g, '.').toLowerCase();
    if (key !== '') node = { key, parent: node };
    for (let n = (m?.[2] ?? '').split('[').length - 1; n > 0; n--) node = { key: '[]', parent: node };
  }
  return node;
}
