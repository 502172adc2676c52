import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import { dirOf, join } from '../shapes/kube-files.js';
import { changedFiles } from '../variant-tree.js';
import type { Sides, VariantTree } from '../variant-tree.js';

/** A folder's path from a module call's relative `source` in `from`. */
function resolved(from: string, source: string): string {
  const parts = from === '' ? [] : from.split('/');
  for (const seg of source.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Folders some `.tf` file calls as a local module: Terraform reads no tfvars of theirs. */
function calledFolders(files: Tree): Set<string> {
  const out = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.tf')) continue;
    for (const m of text.matchAll(/\bsource\s*=\s*"(\.\.?\/[^"]*)"/g)) out.add(resolved(dirOf(path), m[1] ?? ''));
  }
  return out;
}

/**
 * The one-line defaults of a file's variables taken out (the variable then required), by name:
 * a `default = …` line whose value closes on the line.
 */
function takeDefaults(text: string): { text: string; values: [string, string][] } {
  const values: [string, string][] = [];
  let current: string | null = null;
  let depth = 0;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
    if (depth === 0) current = /^variable\s+"([^"]+)"\s*\{\s*$/.exec(line)?.[1] ?? null;
    const inVariable = depth === 1 && current !== null;
    depth += (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
    const m = /^\s*default\s*=\s*(.+?)\s*$/.exec(line);
    const value = m?.[1] ?? '';
    const closes = (open: RegExp, close: RegExp) => (bare.match(open) ?? []).length === (bare.match(close) ?? []).length;
    if (inVariable && m && !/#|\/\/|<</.test(bare) && closes(/\{/g, /\}/g) && closes(/\[/g, /\]/g) && value !== 'null') {
      values.push([current ?? '', value]);
      continue;
    }
    out.push(line);
  }
  return { text: out.join('\n'), values };
}

/**
 * The defaults of the variables of each changed root folder (one no file calls as a module, with no
 * var-file of its own) moved to `gj-defaults.auto.tfvars` beside, which Terraform loads without
 * being told: every variable has the value it had.
 */
export const tfDefaultsAutoTfvars: Rewrite = {
  id: 'tf-defaults-auto-tfvars',
  what: "the variables' defaults moved to a `*.auto.tfvars` beside",
  apply: (sides: Sides) => {
    const all = { ...sides.base.files, ...sides.head.files };
    const called = calledFolders(all);
    const dirs = [
      ...new Set(
        changedFiles(sides)
          .filter((p) => p.endsWith('.tf'))
          .map(dirOf),
      ),
    ].filter((d) => !called.has(d) && !Object.keys(all).some((p) => dirOf(p) === d && /\.tfvars(\.json)?$/.test(p)));
    if (dirs.length === 0) return null;
    const seen = { touched: false };
    const side = (tree: VariantTree): VariantTree => {
      const files: Tree = { ...tree.files };
      for (const dir of dirs) {
        const values: [string, string][] = [];
        for (const [path, text] of Object.entries(tree.files)) {
          if (dirOf(path) !== dir || !path.endsWith('.tf')) continue;
          const out = takeDefaults(text);
          files[path] = out.text;
          values.push(...out.values);
        }
        if (values.length === 0) continue;
        seen.touched = true;
        files[join(dir, 'gj-defaults.auto.tfvars')] = values.map(([name, v]) => `${name} = ${v}\n`).join('');
      }
      return { files, special: { ...tree.special } };
    };
    const out = { base: side(sides.base), head: side(sides.head) };
    return seen.touched ? out : null;
  },
};
