import type { PathFs } from './terragrunt-paths.js';
import type { TreeReader } from '../../domain/index.js';
import { dirOf } from '../kit/paths.js';
import { chooseObject } from './chosen-object.js';
import { evaluate } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';
import { ExprSyntaxError, parseTemplate } from './expr-parse.js';
import type { Expr } from './expr-parse.js';
import { parseHcl } from './hcl.js';
import { asRecord, moduleScope } from './module-scope.js';
import { readTerragruntUnit } from './terraform-parser.js';
import { evalPath, evalPathExpr, normal } from './terragrunt-paths.js';
import { extraArgumentsOf, varFileValues } from './terragrunt-var-files.js';
import type { ExtraArguments } from './terragrunt-var-files.js';

/* How Terragrunt reads one unit: its includes and `read_terragrunt_config` locals merged into its inputs and module. */

interface UnknownInclude {
  line: number | null;
  subject: string;
  needs: string;
  message: string;
}

export type UnitRead = {
  /** Every file the unit's config read: the includes and the read_terragrunt_config targets. */
  sources: string[];
  invalid?: true;
  unknownInclude: UnknownInclude | null;
  outcome: ReturnType<typeof readTerragruntUnit>;
  /** The module call the unit makes, with everything it includes merged in. */
  call?: { source: string; inputs: Record<string, unknown>; scope: Scope; line: number };
};

/** One unit at one side, merged with what it includes. Null when it is absent or not valid HCL there. */
export async function readUnit(reader: TreeReader, unit: string): Promise<UnitRead | null> {
  const text = await reader.read(unit);
  if (text === null) return null;
  const hcl = parseHcl(unit, text);
  // Not valid HCL: its error is the Terraform parser's to report; what it includes is unknown.
  if (!hcl.ok) return { sources: [], unknownInclude: null, invalid: true, outcome: { decls: [], diagnostics: [] } };
  const fs: PathFs = { dir: dirOf(unit), reader };
  const sources: string[] = [];
  const unknown = (line: number | null, subject: string, needs: string, why: string): UnitRead => ({
    sources,
    unknownInclude: {
      line,
      subject,
      needs,
      message: `${subject} (${needs}): ${why}, so the inputs and module it hands this unit are not followed; the unit is read alone`,
    },
    outcome: { decls: [], diagnostics: [] },
  });

  const own = await configOf(hcl.value, fs, sources);
  if ('culprit' in own) return unknown(lineOf(text, /read_terragrunt_config/), 'read_terragrunt_config', own.expr, own.culprit);
  let source = terraformSource(hcl.value);
  // A source taken from an included file is evaluated there: its locals and folder are its own.
  let parentSource: string | null = null;
  let inputs: Record<string, unknown> = {};
  let deep = false;
  const exposed: Record<string, Value> = {};
  const extra: ExtraArguments[] = [];
  for (const inc of includesOf(hcl.value)) {
    const where = lineOf(text, new RegExp(`^\\s*include\\b${inc.label === null ? '' : `\\s*"${inc.label}"`}`));
    const subject = inc.label === null ? 'include' : `include.${inc.label}`;
    const target = await evalPath(inc.path, fs, own.scope);
    if ('culprit' in target) return unknown(where, subject, String(inc.path), `its path uses ${target.culprit}`);
    const parentText = await reader.read(target.path);
    if (parentText === null) return unknown(where, subject, target.path, 'that file is not in the repository at this side');
    const parsed = parseHcl(target.path, parentText);
    if (!parsed.ok) return unknown(where, subject, target.path, `it is not valid HCL (${parsed.error.message})`);
    sources.push(target.path);
    // An included file's functions run as the including unit's: paths from the unit's folder.
    const inFs: PathFs = { ...fs, include: target.path };
    const parent = await configOf(parsed.value, inFs, sources);
    if ('culprit' in parent) return unknown(where, subject, target.path, `its read_terragrunt_config uses ${parent.culprit}`);
    const parentInputs = valuesOf(parsed.value.inputs, parent.scope);
    if (inc.mergeStrategy !== 'no_merge') {
      deep ||= inc.mergeStrategy === 'deep';
      inputs = inc.mergeStrategy === 'deep' ? deepMerge(inputs, parentInputs.raw) : { ...inputs, ...parentInputs.raw };
      extra.push(...extraArgumentsOf(parsed.value, inFs, parent.scope));
      const theirs = source === null && parentSource === null ? terraformSource(parsed.value) : null;
      if (theirs !== null) parentSource = await sourceValue(theirs, inFs, parent.scope);
    }
    if (inc.expose && inc.label !== null) exposed[inc.label] = { inputs: parentInputs.known, locals: parent.locals };
  }
  const bound = new Map<string, Value>(Object.keys(exposed).length > 0 ? [['include', exposed]] : []);
  const scope = moduleScope([{ path: unit, body: { locals: [own.localsRaw] } }], { bound });
  const ownInputs = hcl.value.inputs;
  if (ownInputs !== undefined) {
    const chosen = chooseObject(ownInputs, scope);
    if (!chosen.ok) {
      const line = lineOf(text, /^\s*inputs\b/);
      return {
        sources,
        unknownInclude: {
          line,
          subject: 'inputs',
          needs: typeof ownInputs === 'string' ? ownInputs : 'inputs',
          message: `inputs come from ${chosen.culprit}: the inputs this unit hands its module, and any GPU capacity they size, are not followed`,
        },
        outcome: { decls: [], diagnostics: [] },
      };
    }
    // The unit's own inputs win; with a deep merge, map by map.
    if (!chosen.absent) inputs = deep ? deepMerge(inputs, chosen.fields) : { ...inputs, ...chosen.fields };
  }
  // Variable files `extra_arguments` hand the module: over the inputs, as -var-file is over TF_VAR_.
  const varFiles = await varFileValues([...extra, ...extraArgumentsOf(hcl.value, fs, scope)]);
  if ('culprit' in varFiles)
    return unknown(
      lineOf(text, /^\s*extra_arguments\b/) ?? lineOf(text, /^\s*include\b/),
      varFiles.subject,
      varFiles.needs,
      varFiles.culprit,
    );
  sources.push(...varFiles.files);
  inputs = { ...inputs, ...varFiles.values };
  // `source = "${include.env.locals.source_base_url}?ref=2.5.0"`: the module is known once evaluated.
  if (source !== null) source = await sourceValue(source, fs, scope);
  source ??= parentSource;
  const body: Record<string, unknown> = {
    ...(source === null ? {} : { terraform: [{ source }] }),
    inputs,
    locals: [own.localsRaw],
  };
  const line = lineOf(text, /^\s*inputs\b/) ?? lineOf(text, /^\s*include\b/) ?? 1;
  return {
    sources,
    unknownInclude: null,
    outcome: readTerragruntUnit(unit, body, text, scope),
    ...(source === null ? {} : { call: { source, inputs, scope, line } }),
  };
}

/** A module source as Terragrunt evaluates it (`${get_repo_root()}/modules/gpu`); as written when it cannot be. */
async function sourceValue(raw: string, fs: PathFs, scope: Scope): Promise<string> {
  return raw.includes('${') ? ((await pathValue(raw, fs, scope)) ?? raw) : raw;
}

const PATH_FUNCTION =
  /\b(get_repo_root|get_terragrunt_dir|get_original_terragrunt_dir|get_parent_terragrunt_dir|get_path_to_repo_root|find_in_parent_folders|path_relative_to_include|path_relative_from_include)\s*\(/;

/** A string with Terragrunt's path functions in it, evaluated; null when it cannot be. */
async function pathValue(raw: string, fs: PathFs, scope: Scope): Promise<string | null> {
  try {
    const v = await evalPathExpr({ t: 'tpl', parts: parseTemplate(raw) }, fs, scope);
    return 'culprit' in v ? null : v.path;
  } catch (err) {
    if (err instanceof ExprSyntaxError) return null;
    throw err;
  }
}

interface Include {
  label: string | null;
  path: unknown;
  expose: boolean;
  mergeStrategy: string;
}

/** `include "root" { … }` blocks (labelled) or one unlabelled `include { … }`. */
function includesOf(body: Record<string, unknown>): Include[] {
  const raw = body.include;
  const one = (label: string | null, b: unknown): Include => {
    const r = asRecord(Array.isArray(b) ? b[b.length - 1] : b);
    const strategy = typeof r.merge_strategy === 'string' ? r.merge_strategy : 'shallow';
    return { label, path: r.path, expose: r.expose === true || r.expose === 'true', mergeStrategy: strategy };
  };
  if (Array.isArray(raw)) return raw.length === 0 ? [] : [one(null, raw)];
  return Object.entries(asRecord(raw)).map(([label, b]) => one(label, b));
}

function terraformSource(body: Record<string, unknown>): string | null {
  const blocks = Array.isArray(body.terraform) ? body.terraform : [];
  const last = asRecord(blocks[blocks.length - 1]);
  return typeof last.source === 'string' ? last.source : null;
}

/**
 * A config's locals, with each `read_terragrunt_config(…)` local replaced by what that file
 * holds (its evaluated `locals` and `inputs`), so `local.env.locals.gpu_count` resolves.
 */
async function configOf(
  body: Record<string, unknown>,
  fs: PathFs,
  sources: string[],
): Promise<{ localsRaw: Record<string, unknown>; scope: Scope; locals: Value } | { culprit: string; expr: string }> {
  const localsRaw: Record<string, unknown> = {};
  for (const b of Array.isArray(body.locals) ? body.locals : []) Object.assign(localsRaw, asRecord(b));
  const plain = moduleScope([{ path: 'config.hcl', body: { locals: [localsRaw] } }]);
  for (const [name, raw] of Object.entries(localsRaw)) {
    const call = readConfigCall(raw);
    if (call === null) {
      // `base = "${get_repo_root()}/modules"`: Terragrunt's path functions answer as they would for the unit.
      const path = typeof raw === 'string' && PATH_FUNCTION.test(raw) ? await pathValue(raw, fs, plain) : null;
      if (path !== null) localsRaw[name] = literal(path);
      continue;
    }
    const found = await evalPathExpr(call, fs, plain);
    if ('culprit' in found) return { culprit: found.culprit, expr: String(raw) };
    const target = normal(found.path, fs.dir);
    const text = await fs.reader.read(target);
    const parsed = text === null ? null : parseHcl(target, text);
    if (parsed === null || !parsed.ok) return { culprit: `${target}, which cannot be read at this side`, expr: String(raw) };
    sources.push(target);
    const inner = await configOf(parsed.value, fs, sources);
    if ('culprit' in inner) return inner;
    localsRaw[name] = literal({ locals: inner.locals, inputs: valuesOf(parsed.value.inputs, inner.scope).known });
  }
  const scope = moduleScope([{ path: 'config.hcl', body: { locals: [localsRaw] } }]);
  const locals: Record<string, Value> = {};
  for (const name of Object.keys(localsRaw)) {
    const r = evaluate(`\${local.${name}}`, scope);
    if (r.ok) locals[name] = r.value;
  }
  return { localsRaw, scope, locals };
}

/** `read_terragrunt_config(path)` or `read_terragrunt_config(path, default)`: the path argument. */
function readConfigCall(raw: unknown): Expr | null {
  if (typeof raw !== 'string' || !raw.includes('read_terragrunt_config')) return null;
  const e = onlyExpr(raw);
  return e?.t === 'call' && e.name === 'read_terragrunt_config' ? (e.args[0] ?? null) : null;
}

/**
 * A parent's inputs: `known` holds what evaluates in the parent's own scope (for
 * `include.x.inputs`); `raw` is what merges into the unit, each value that evaluates replaced by
 * its value (the parent's locals are not the unit's), the others left as written, to be warned
 * about where they are read.
 */
function valuesOf(raw: unknown, scope: Scope): { known: Record<string, Value>; raw: Record<string, unknown> } {
  const known: Record<string, Value> = {};
  const out: Record<string, unknown> = {};
  if (raw === undefined) return { known, raw: out };
  const chosen = chooseObject(raw, scope);
  if (!chosen.ok || chosen.absent) return { known, raw: out };
  for (const [k, v] of Object.entries(chosen.fields)) {
    const r = evaluate(v, scope);
    if (r.ok) {
      known[k] = r.value;
      out[k] = literal(r.value);
    } else out[k] = v;
  }
  return { known, raw: out };
}

/** A value as hcl2json would print its literal: `${` in strings escaped, so nothing is re-evaluated. */
function literal(v: Value): unknown {
  if (typeof v === 'string') return v.replace(/\$\{/g, '$${');
  if (Array.isArray(v)) return v.map(literal);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literal(x)]));
  return v;
}

function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out = { ...into };
  for (const [k, v] of Object.entries(from)) {
    const a = out[k];
    out[k] = isMap(a) && isMap(v) ? deepMerge(a, v) : v;
  }
  return out;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function lineOf(text: string, re: RegExp): number | null {
  const i = text.split('\n').findIndex((l) => re.test(l));
  return i < 0 ? null : i + 1;
}

function onlyExpr(raw: string): Expr | null {
  try {
    const parts = parseTemplate(raw);
    const only = parts[0];
    return parts.length === 1 && only !== undefined && typeof only !== 'string' ? only : null;
  } catch (err) {
    if (err instanceof ExprSyntaxError) return null;
    throw err;
  }
}
