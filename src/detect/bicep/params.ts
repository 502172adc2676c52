import { dirOf } from '../kit/paths.js';
import type { Budget } from '../kit/eval-budget.js';
import type { SourceFile } from '../parser.js';
import { parseBicep } from './grammar.js';
import { localModulePath } from './modules.js';
import { fileScope } from './template-read.js';
import type { Given } from './reading.js';
import { BicepUnknown } from './values.js';
import type { BicepValue } from './values.js';

/** A `.bicepparam` file: the template it sets and the values it gives. */
export interface ParamFile {
  path: string;
  /** `using './main.bicep'` as a repository path; null for `using none`; undefined when it names none (an older file). */
  using: string | null | undefined;
  values: ReadonlyMap<string, BicepValue | BicepUnknown>;
  given: Given;
}

const USING = /^\s*using\s+(?:'([^']*)'|(none)\b)/m;
const PARAM = /^(\s*)param(\s+)([A-Za-z_]\w*)(\s*=)/gm;

/** The template a parameter file sets (`using`), as a repository path; undefined when it names none. */
export function usingOf(file: SourceFile): string | null | undefined {
  const m = USING.exec(file.text);
  if (m === null) return undefined;
  if (m[2] === 'none' || m[1] === undefined) return null;
  return localModulePath(file.path, m[1]);
}

/**
 * A parameter file read as Bicep reads it: each `param x = <expression>` evaluated (objects,
 * arrays, the file's `var`s, functions), an expression that cannot be known (an environment
 * variable, `az.getSecret()`) kept as unknown.
 */
export function readParamFile(file: SourceFile, budget: Budget): ParamFile {
  const names: string[] = [];
  // `param x = v` reads as the variable `var x = v` to the grammar of templates, on the same line.
  const text = file.text.replace(PARAM, (_all, indent: string, gap: string, name: string, eq: string) => {
    names.push(name);
    return `${indent}var${gap}${name}${eq}`;
  });
  const values = new Map<string, BicepValue | BicepUnknown>();
  const parsed = parseBicep(text);
  const using = usingOf(file);
  if ('error' in parsed) {
    for (const n of names) values.set(n, new BicepUnknown(`${file.path}: ${parsed.error}`));
  } else {
    try {
      const scope = fileScope(parsed.tree.rootNode, () => undefined, '', budget);
      for (const n of names) {
        try {
          values.set(n, scope.lookup(n));
        } catch (err) {
          if (!(err instanceof BicepUnknown)) throw err;
          values.set(n, err);
        }
      }
    } finally {
      parsed.tree.delete();
    }
  }
  return { path: file.path, using, values, given: (name) => values.get(name) };
}

/** A parameter file's name without its folder and extension: the deployment it stands for (`prod`). */
export function deploymentName(path: string): string {
  return path
    .slice(dirOf(path).length)
    .replace(/^\//, '')
    .replace(/\.bicepparam$/, '');
}
