import { TerraformBudget } from './expr-budget.js';
import { evalExpr, evalJson, Unresolved } from './expr-eval.js';
import type { PValue, Scope, Value } from './expr-eval.js';
import { Unk } from './expr-values.js';
import { convert, typeOf } from './expr-types.js';
import type { HclBody } from './hcl.js';
import { templateFileData, TREE_DATA_SOURCES } from './template-data.js';

/** One parsed file of a Terraform module. */
export interface ModuleFile {
  path: string;
  body: HclBody;
}

const NO_BINDINGS: ReadonlyMap<string, Value> = new Map();

/** `terraform.tfvars` and `*.auto.tfvars` (and their `.json` forms) are loaded by Terraform without being named. */
export function isAutoTfvars(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.json$/, '');
  return base === 'terraform.tfvars' || base.endsWith('.auto.tfvars');
}

export function isTfvarsPath(path: string): boolean {
  return path.endsWith('.tfvars') || path.endsWith('.tfvars.json');
}

export interface ScopeOptions {
  /** Names every expression of the module sees (a Terragrunt unit's `include`). */
  bound?: ReadonlyMap<string, PValue>;
  /** The evaluation budget of this reading; a fresh one when not given. */
  budget?: TerraformBudget;
  /** Files of the module's folder that `file()` and `templatefile()` may read, by path relative to it. */
  file?: (path: string) => string | null;
}

/**
 * Variables and locals of a module: `.tfvars` values win over `variable` defaults, and each value
 * is converted to its variable's type (`optional()` defaults applied). Terraform loads only the
 * auto tfvars by itself; other `.tfvars` files are chosen with -var-file, so their value is used
 * only when every such file agrees. A local or variable that cannot be evaluated is remembered
 * as such: a chain of locals reading each other twice is not evaluated again and again.
 */
export function moduleScope(files: readonly ModuleFile[], options: ScopeOptions = {}): Scope {
  const budget = options.budget ?? new TerraformBudget();
  const declared = new Map<string, { block: Record<string, unknown> }>();
  const locals = new Map<string, unknown>();
  const dataBlocks = new Map<string, Record<string, unknown>>();
  const auto = new Map<string, unknown>();
  const chosen = new Map<string, unknown[]>();
  const chosenFiles: string[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (isTfvarsPath(f.path)) {
      const into = isAutoTfvars(f.path) ? null : (chosenFiles.push(f.path), chosen);
      for (const [k, v] of Object.entries(f.body)) {
        if (into) into.set(k, [...(into.get(k) ?? []), v]);
        else auto.set(k, v);
      }
      continue;
    }
    for (const [name, blocks] of Object.entries(asRecord(f.body.variable))) {
      const block = Array.isArray(blocks) ? asRecord(blocks[0]) : asRecord(blocks);
      declared.set(name, { block });
    }
    const localBlocks = Array.isArray(f.body.locals) ? f.body.locals : f.body.locals === undefined ? [] : [f.body.locals];
    for (const b of localBlocks) for (const [k, v] of Object.entries(asRecord(b))) locals.set(k, v);
    for (const type of TREE_DATA_SOURCES) {
      for (const [label, blocks] of Object.entries(asRecord(asRecord(f.body.data)[type]))) {
        dataBlocks.set(`${type}.${label}`, asRecord(Array.isArray(blocks) ? blocks[blocks.length - 1] : blocks));
      }
    }
  }

  // Variable values and defaults are literals: they see nothing of the module.
  const literals: Scope = {
    variable: (n) => {
      throw new Unresolved(`var.${n} inside a variable value`);
    },
    local: (n) => {
      throw new Unresolved(`local.${n} inside a variable value`);
    },
    bound: NO_BINDINGS,
    budget,
  };
  const varCache = new Map<string, PValue | Unresolved>();
  const localCache = new Map<string, PValue | Unresolved>();
  const dataCache = new Map<string, PValue | Unresolved>();
  const evaluating = new Set<string>();
  const remembered = (cache: Map<string, PValue | Unresolved>, name: string, compute: () => PValue): PValue => {
    const cached = cache.get(name);
    if (cached instanceof Unresolved) throw cached;
    if (cached !== undefined) return cached;
    try {
      const value = compute();
      cache.set(name, value);
      return value;
    } catch (err) {
      if (err instanceof Unresolved) cache.set(name, err);
      throw err;
    }
  };

  // A data source is known by its block and by what it renders from (its template's text, its vars as far as known).
  const dataDefinition = (label: string): unknown => {
    const block = dataBlocks.get(`template_file.${label}`) ?? null;
    try {
      return { block, value: JSON.parse(JSON.stringify(scope.data?.('template_file', label) ?? null)) as unknown };
    } catch (err) {
      if (err instanceof Unresolved) return { block, unknown: err.culprit };
      throw err;
    }
  };
  const scope: Scope = {
    bound: options.bound ?? NO_BINDINGS,
    budget,
    ...(options.file ? { file: options.file } : {}),
    definition: (root, name) => {
      if (root === 'local') return locals.get(name) ?? null;
      if (root === 'data.template_file') return dataDefinition(name);
      return { declared: declared.get(name)?.block ?? null, auto: auto.get(name) ?? null, chosen: chosen.get(name) ?? null };
    },
    variable(name) {
      return remembered(varCache, name, () => {
        const decl = declared.get(name);
        let raw: unknown;
        if (auto.has(name)) raw = auto.get(name);
        else if (chosen.has(name)) {
          const values = chosen.get(name) ?? [];
          const same = values.every((v) => JSON.stringify(v) === JSON.stringify(values[0]));
          if (!same || values.length < chosenFiles.length) {
            throw new Unresolved(`var.${name}, which ${chosenFiles.join(', ')} set differently (which one applies depends on -var-file)`);
          }
          raw = values[0];
        } else if (decl && 'default' in decl.block) raw = decl.block.default;
        else if (decl) throw new Unresolved(`var.${name}, which has no default`);
        else throw new Unresolved(`var.${name}, which is not declared in the files read`);
        const type = typeOf(decl?.block.type);
        const value = convert(evalJson(raw, literals), type, budget, (e) => evalExpr(e, literals));
        if (value === null && decl && (decl.block.nullable === false || decl.block.nullable === 'false') && 'default' in decl.block) {
          // A non-nullable variable given null takes its default.
          return convert(evalJson(decl.block.default, literals), type, budget, (e) => evalExpr(e, literals));
        }
        return value;
      });
    },
    data(type, label) {
      const address = `data.${type}.${label}`;
      return remembered(dataCache, address, () => {
        const block = dataBlocks.get(`${type}.${label}`);
        if (block === undefined) throw new Unresolved(`${address}, a data source`);
        if (evaluating.has(address)) throw new Unresolved(`${address}, which refers to itself`, true);
        evaluating.add(address);
        try {
          return templateFileData(address, block, scope);
        } finally {
          evaluating.delete(address);
        }
      });
    },
    local(name) {
      return remembered(localCache, name, () => {
        if (!locals.has(name)) throw new Unresolved(`local.${name}, which is not defined in the files read`);
        if (evaluating.has(name)) throw new Unresolved(`local.${name}, which refers to itself`, true);
        evaluating.add(name);
        try {
          return evalJson(locals.get(name), scope);
        } finally {
          evaluating.delete(name);
        }
      });
    },
  };
  return scope;
}

export function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Unk) ? (v as Record<string, unknown>) : {};
}
