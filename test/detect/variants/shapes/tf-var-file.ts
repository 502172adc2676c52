import type { Tree } from '../../real-fixtures.js';
import { changedFiles } from '../variant-tree.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { baseName, dirOf, join } from './kube-files.js';
import { spellTfNumbers } from './tf-numbers.js';

const varName = (path: string, n: number) => `gj_${baseName(path).replace(/\W/g, '_')}_${n}`;

/**
 * The numbers of the changed Terraform folders made variables without defaults, their values in a
 * var-file of the same folder that Terraform loads without being told (`terraform.tfvars`,
 * `*.auto.tfvars`, or their `.json` twins), written by `write` from the names and values. Only for
 * folders with no var-file of their own, and where the pull request changes a value.
 */
export function liftToVarFile(sides: Sides, file: string, write: (values: [string, number][]) => string): Sides | null {
  const dirs = [
    ...new Set(
      changedFiles(sides)
        .filter((p) => p.endsWith('.tf'))
        .map(dirOf),
    ),
  ];
  const all = Object.keys({ ...sides.base.files, ...sides.head.files });
  if (dirs.length === 0 || all.some((p) => dirs.includes(dirOf(p)) && /\.tfvars(\.json)?$/.test(p))) return null;
  const side = (tree: VariantTree): VariantTree => {
    const files: Tree = { ...tree.files };
    for (const dir of dirs) {
      const values: [string, number][] = [];
      for (const [path, text] of Object.entries(tree.files)) {
        if (dirOf(path) !== dir || !path.endsWith('.tf')) continue;
        const out = spellTfNumbers(text, (v, n) => {
          values.push([varName(path, n), v]);
          return `var.${varName(path, n)}`;
        });
        files[path] = out.text;
      }
      if (values.length === 0) continue;
      files[join(dir, 'gj-inputs.tf')] = values.map(([name]) => `variable "${name}" {\n  type = number\n}\n`).join('');
      files[join(dir, file)] = write(values);
    }
    return { files, special: { ...tree.special } };
  };
  const out = { base: side(sides.base), head: side(sides.head) };
  return dirs.some((d) => out.base.files[join(d, file)] !== out.head.files[join(d, file)]) ? out : null;
}

export const hclValues = (values: [string, number][]) => values.map(([name, v]) => `${name} = ${v}\n`).join('');
export const jsonValues = (values: [string, number][]) => `${JSON.stringify(Object.fromEntries(values), null, 2)}\n`;
