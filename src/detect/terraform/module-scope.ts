import { evalJson, Unresolved } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import type { HclBody } from './hcl.js';

/** One parsed file of a Terraform module. */
export interface ModuleFile {
  path: string;
  body: HclBody;
}

const NO_BINDINGS: ReadonlyMap<string, Value> = new Map();

/** `terraform.tfvars` and `*.auto.tfvars` are loaded by Terraform without being named. */
export function isAutoTfvars(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === 'terraform.tfvars' || base.endsWith('.auto.tfvars');
}

/**
 * Variables and locals of a module: `.tfvars` values win over `variable` defaults. Terraform
 * loads only the auto tfvars by itself; other `.tfvars` files are chosen with -var-file, so
 * their value is used only when every such file agrees.
 */
/** `bound`: names every expression of the module sees (a Terragrunt unit's `include`). */
export function moduleScope(files: readonly ModuleFile[], bound: ReadonlyMap<string, Value> = NO_BINDINGS): Scope {
  const declared = new Map<string, { block: Record<string, unknown> }>();
  const locals = new Map<string, unknown>();
  const auto = new Map<string, unknown>();
  const chosen = new Map<string, unknown[]>();
  const chosenFiles: string[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (f.path.endsWith('.tfvars')) {
      const into = isAutoTfvars(f.path) ? null : (chosenFiles.push(f.path), chosen);
      for (const [k, v] of Object.entries(f.body)) {
        if (into) into.set(k, [...(into.get(k) ?? []), v]);
        else auto.set(k, v);
      }
      continue;
    }
    for (const [name, blocks] of Object.entries(asRecord(f.body.variable))) {
      const block = Array.isArray(blocks) ? asRecord(blocks[0]) : {};
      declared.set(name, { block });
    }
    const localBlocks = Array.isArray(f.body.locals) ? f.body.locals : [];
    for (const b of localBlocks) for (const [k, v] of Object.entries(asRecord(b))) locals.set(k, v);
  }

  const empty: Scope = {
    variable: (n) => {
      throw new Unresolved(`var.${n} inside a variable default`);
    },
    local: (n) => {
      throw new Unresolved(`local.${n} inside a variable default`);
    },
    bound: NO_BINDINGS,
  };
  const varCache = new Map<string, Value>();
  const localCache = new Map<string, Value>();
  const evaluating = new Set<string>();

  const scope: Scope = {
    bound,
    variable(name) {
      const cached = varCache.get(name);
      if (cached !== undefined) return cached;
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
      const value = withOptionalDefaults(evalJson(raw, empty), decl?.block.type);
      if (value === null && decl?.block.nullable === false) throw new Unresolved(`var.${name}, which is null`);
      varCache.set(name, value);
      return value;
    },
    local(name) {
      const cached = localCache.get(name);
      if (cached !== undefined) return cached;
      if (!locals.has(name)) throw new Unresolved(`local.${name}, which is not defined in the files read`);
      if (evaluating.has(name)) throw new Unresolved(`local.${name}, which refers to itself`);
      evaluating.add(name);
      try {
        const value = evalJson(locals.get(name), scope);
        localCache.set(name, value);
        return value;
      } finally {
        evaluating.delete(name);
      }
    },
  };
  return scope;
}

/**
 * Fills attributes an `object({… x = optional(type, default) …})` type leaves out, as
 * Terraform does; only scalar defaults are read, the rest become null.
 */
function withOptionalDefaults(value: Value, type: unknown): Value {
  if (typeof type !== 'string' || !type.includes('optional(')) return value;
  const defaults = new Map<string, Value>();
  const re =
    /([A-Za-z_][\w-]*)\s*=\s*optional\(\s*((?:[^(),]|\([^()]*(?:\([^()]*\))?[^()]*\))+?)\s*(?:,\s*("[^"]*"|-?\d+(?:\.\d+)?|true|false|null|\[\]|\{\}))?\s*\)/g;
  for (const m of type.matchAll(re)) defaults.set(m[1] ?? '', m[3] === undefined ? null : parseScalar(m[3]));
  const fill = (obj: Value): Value => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
    const out = { ...obj };
    for (const [k, d] of defaults) if (!(k in out)) out[k] = d;
    return out;
  };
  const t = type.replace(/\s/g, '');
  if (/^\$\{(map|list|set)\(object\(/.test(t)) {
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
  }
  return /^\$\{object\(/.test(t) ? fill(value) : value;
}

function parseScalar(s: string): Value {
  if (s === '[]') return [];
  if (s === '{}') return {};
  return JSON.parse(s) as Value;
}

export function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
