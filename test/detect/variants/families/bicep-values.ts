import type { Tree } from '../../real-fixtures.js';
import type { Rewrite } from '../rewrite.js';
import type { Sides, VariantTree } from '../variant-tree.js';
import { bicepLines, entryTemplates, LITERAL, paramFilesOf, paramPathOf, usingOf } from './bicep-text.js';

/** Both sides' whole trees passed through `fn` (null: the side left as it is); null when neither changed. */
export function mapBicepTrees(sides: Sides, fn: (files: Tree) => Tree | null): Sides | null {
  const side = (tree: VariantTree): [VariantTree, boolean] => {
    const out = fn(tree.files);
    return [{ files: out ?? tree.files, special: { ...tree.special } }, out !== null];
  };
  const [base, b] = side(sides.base);
  const [head, h] = side(sides.head);
  return b || h ? { base, head } : null;
}

/** Every Bicep file (`.bicep`, `.bicepparam`) of a side passed through `fn` (null: left as it is). */
function mapBicepFiles(files: Tree, fn: (text: string, path: string) => string | null): Tree | null {
  const out: Tree = {};
  let touched = false;
  for (const [path, text] of Object.entries(files)) {
    const next = path.endsWith('.bicep') || path.endsWith('.bicepparam') ? fn(text, path) : null;
    touched ||= next !== null && next !== text;
    out[path] = next ?? text;
  }
  return touched ? out : null;
}

const PARAM_DEFAULT = new RegExp(String.raw`^(param\s+[A-Za-z_]\w*\s+\w+\s*=\s*)(${LITERAL})([ \t]*)$`, 'gm');
const PARAM_VALUE = new RegExp(String.raw`^(param\s+[A-Za-z_]\w*\s*=\s*)(${LITERAL})([ \t]*)$`, 'gm');
/** Arguments whose value must be a symbol, or that place a resource rather than set it. */
const KEEP_KEYS = new Set(['parent', 'scope', 'dependsOn']);
const PROPERTY = new RegExp(String.raw`^(\s+)([A-Za-z_]\w*|'[^'$]+')(:\s*)(${LITERAL}|[A-Za-z_]\w*)([ \t]*)$`);

/** Names of a file's `param`s and `var`s: identifiers a value may be hoisted or wrapped with. */
function fileSymbols(text: string): Set<string> {
  return new Set([...text.matchAll(/^(?:param|var)\s+([A-Za-z_]\w*)/gm)].map((m) => m[1] ?? ''));
}

/**
 * Each literal or file-level symbol a resource or module body sets on a line of its own
 * (`count: gpuNodeCount`, `vmSize: 'Standard_NC6s_v3'`), passed through `spell` (the value, and
 * whether it is a literal); nested objects, loops and conditions keep their line shape.
 */
function mapProperties(text: string, spell: (value: string, literal: boolean) => string | null): string {
  const symbols = fileSymbols(text);
  const literal = new RegExp(`^(?:${LITERAL})$`);
  return bicepLines(text)
    .map((l) => {
      if (l.depth === 0 || l.decl === null || !/^(resource|module)\s/.test(l.decl) || /\bexisting\s*=/.test(l.decl)) return l.text;
      const m = PROPERTY.exec(l.text);
      if (!m) return l.text;
      const [, indent = '', key = '', colon = '', value = '', rest = ''] = m;
      const isLiteral = literal.test(value);
      if (KEEP_KEYS.has(key) || (!isLiteral && !symbols.has(value))) return l.text;
      const out = spell(value, isLiteral);
      return out === null ? l.text : `${indent}${key}${colon}${out}${rest}`;
    })
    .join('\n');
}

/** The default of each literal parameter moved to a new `.bicepparam` of an entry template that has none. */
function paramsFile(files: Tree): Tree | null {
  const out: Tree = { ...files };
  let touched = false;
  for (const t of entryTemplates(files)) {
    if (paramFilesOf(files, t).length > 0) continue;
    const moved: string[] = [];
    const text = (files[t] ?? '').replace(
      new RegExp(String.raw`^param\s+([A-Za-z_]\w*)\s+(\w+)\s*=\s*(${LITERAL})[ \t]*$`, 'gm'),
      (_all, name: string, type: string, value: string) => {
        moved.push(`param ${name} = ${value}`);
        return `param ${name} ${type}`;
      },
    );
    if (moved.length === 0) continue;
    out[t] = text;
    out[paramPathOf(t)] = `using '${usingOf(t)}'\n\n${moved.join('\n')}\n`;
    touched = true;
  }
  return touched ? out : null;
}

/** Each literal `param x = v` of a `.bicepparam` given through a `var` of the file. */
function paramVars(files: Tree): Tree | null {
  return mapBicepFiles(files, (text, path) =>
    path.endsWith('.bicepparam')
      ? text.replace(PARAM_VALUE, (_all, head: string, value: string, rest: string) => {
          const name = /^param\s+([A-Za-z_]\w*)/.exec(head)?.[1] ?? 'x';
          return `var gj_${name} = ${value}\n${head}gj_${name}${rest}`;
        })
      : null,
  );
}

/** A decoy of the literal's type, for the branch never taken. */
const decoy = (value: string): string => (value.startsWith("'") ? "''" : /^(true|false)$/.test(value) ? 'false' : '0');

/** `'Standard_ND96isr_H100_v5'` → `'${'Standard_ND'}96isr_H100_v5'`: the same string, built. */
function interpolated(value: string): string | null {
  if (!value.startsWith("'") || value.includes('\\') || value.length < 4) return null;
  const body = value.slice(1, -1);
  const cut = Math.ceil(body.length / 2);
  return `'\${'${body.slice(0, cut)}'}${body.slice(cut)}'`;
}

/** Literal parameter defaults, parameter-file values and resource or module properties spelt by `spell`. */
function spellValues(files: Tree, spell: (value: string, literal: boolean) => string | null): Tree | null {
  return mapBicepFiles(files, (text, path) => {
    const values = (all: string, head: string, value: string, rest: string) => {
      const out = spell(value, true);
      return out === null ? all : `${head}${out}${rest}`;
    };
    if (path.endsWith('.bicepparam')) return text.replace(PARAM_VALUE, values);
    return mapProperties(text.replace(PARAM_DEFAULT, values), spell);
  });
}

/** Each resource or module property that is a literal or a parameter hoisted into a `var` of its own. */
function hoisted(files: Tree): Tree | null {
  return mapBicepFiles(files, (text, path) => {
    if (!path.endsWith('.bicep')) return null;
    const vars: string[] = [];
    const out = mapProperties(text, (value) => {
      vars.push(`var gjv${vars.length} = ${value}`);
      return `gjv${vars.length - 1}`;
    });
    return vars.length === 0 ? null : `${out}\n\n${vars.join('\n')}\n`;
  });
}

/**
 * Bicep spelt otherwise, what `az deployment` deploys kept: a template's defaults given by a
 * `.bicepparam` file instead, parameter-file values through variables, values behind a ternary
 * whose condition always holds, strings built by interpolation, and properties set through `var`s.
 */
export const BICEP_VALUES: readonly Rewrite[] = [
  {
    id: 'bicep-params-file',
    what: 'the literal defaults of each entry template moved to a `.bicepparam` file that uses it',
    apply: (sides) => mapBicepTrees(sides, paramsFile),
  },
  {
    id: 'bicep-params-file-vars',
    what: 'the defaults moved to a `.bicepparam` file, each value set through a `var` there',
    apply: (sides) => mapBicepTrees(sides, (files) => paramVars(paramsFile(files) ?? files)),
  },
  {
    id: 'bicep-param-vars',
    what: 'each literal value of a `.bicepparam` file set through a `var` of the file',
    apply: (sides) => mapBicepTrees(sides, paramVars),
  },
  {
    id: 'bicep-ternary',
    what: "each Bicep default, parameter value and property `1 == 1 ? v : 0` (`''`, `false`, `v`)",
    apply: (sides) => mapBicepTrees(sides, (files) => spellValues(files, (v, literal) => `1 == 1 ? ${v} : ${literal ? decoy(v) : v}`)),
  },
  {
    id: 'bicep-interpolated-strings',
    what: "each Bicep string default, parameter value and property built `'${'Standard_ND'}96isr_H100_v5'`",
    apply: (sides) => mapBicepTrees(sides, (files) => spellValues(files, (v, literal) => (literal ? interpolated(v) : null))),
  },
  {
    id: 'bicep-vars',
    what: 'each resource and module property that is a literal or a parameter set through a `var`',
    apply: (sides) => mapBicepTrees(sides, hoisted),
  },
];
