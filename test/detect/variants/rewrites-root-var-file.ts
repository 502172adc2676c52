import type { Tree } from '../real-fixtures.js';
import type { Rewrite } from './rewrite.js';
import { liftNumbers, tfDirs } from './rewrites-terraform.js';
import type { Sides, VariantTree } from './variant-tree.js';

/*
 * A root module applied with a variable file kept in another folder: the numbers of its pools that
 * the pull request leaves alone become variables whose defaults say 0, their real values in
 * `projects/<root>.tfvars` below the root or `environments/<root>.tfvars` beside it, which
 * `terraform apply -var-file` applies. The pull request still changes only the root's `.tf`: read
 * with the defaults alone, its pools would have no nodes or no GPUs at both sides.
 */

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const isTf = (p: string) => p.endsWith('.tf');

/** Where the variable file goes for a root: below it, or in a folder beside it. */
const PLACES = [
  (dir: string, name: string) => join(join(dir, 'projects'), `${name}.tfvars`),
  (dir: string, name: string) => join(join(dir === '' ? '' : dirOf(dir), 'environments'), `${name}.tfvars`),
];

/** `var.gj_<n>` made the literal again in each text where `back` holds its number. */
function restore(files: Tree, back: ReadonlyMap<string, number>): Tree {
  const out: Tree = {};
  for (const [path, text] of Object.entries(files))
    out[path] = text.replace(/\bvar\.(gj_\d+)\b/g, (whole, name: string) => {
      const v = back.get(name);
      return v === undefined ? whole : String(v);
    });
  return out;
}

export const rootVarFile: Rewrite = {
  id: 'tf-root-var-file',
  what: "the root's unchanged numbers in a var-file of another folder, defaults 0",
  apply: (sides, _c, random) => {
    const dirs = tfDirs(sides);
    if (dirs === null) return null;
    const place = PLACES[Math.floor(random() * PLACES.length)] ?? PLACES[0];
    if (place === undefined) return null;
    const out: Sides = {
      base: { files: { ...sides.base.files }, special: { ...sides.base.special } },
      head: { files: { ...sides.head.files }, special: { ...sides.head.special } },
    };
    let moved = 0;
    for (const dir of dirs) {
      const own = (tree: VariantTree) => Object.entries(tree.files).filter(([p]) => dirOf(p) === dir && isTf(p));
      const base = liftNumbers(own(sides.base));
      const head = liftNumbers(own(sides.head));
      // The numbers are matched by their order: a pull request adding or removing one is left as it is.
      if (base.values.length !== head.values.length || base.values.length === 0) continue;
      const kept = base.values.filter(([name, v], i) => head.values[i]?.[0] === name && head.values[i][1] === v);
      if (kept.length === 0) continue;
      const keptNames = new Set(kept.map(([n]) => n));
      const back = (values: [string, number][]) => new Map(values.filter(([n]) => !keptNames.has(n)));
      const name = dir === '' ? 'root' : dir.replace(/\//g, '-');
      const mine = (text: string) => text.replace(/\bgj_(\d+)\b/g, `gj${moved}_$1`);
      const inputs = kept.map(([n]) => `variable "${n}" {\n  type    = number\n  default = 0\n}\n`).join('');
      const values = kept.map(([n, v]) => `${n} = ${v}\n`).join('');
      for (const [side, lifted] of [
        ['base', base],
        ['head', head],
      ] as const) {
        // Each root's own names: a root declaring another's would be applied with its file too.
        for (const [path, text] of Object.entries(restore(lifted.files, back(lifted.values)))) out[side].files[path] = mine(text);
        out[side].files[join(dir, 'gj-inputs.tf')] = mine(inputs);
        out[side].files[place(dir, name)] = mine(values);
      }
      moved++;
    }
    return moved === 0 ? null : out;
  },
};
