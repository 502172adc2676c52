import { diagnostic } from '../../domain/index.js';
import type { Diagnostic, ObjectAddress } from '../../domain/index.js';
import { clampLine } from '../kit/lines.js';
import { accountedOf } from '../parser.js';
import type { Accounting, CapacityParser, ParseOutcome, ParseResult, SourceFile, Unfollowed } from '../parser.js';
import { overrideAccounting } from './override-accounting.js';
import { mapAddress, movesIn, withMoves } from './addresses.js';
import { readAksModules } from './aks-module.js';
import { onValueFiles } from './call-notes.js';
import { fileReferences } from './templates.js';
import { readWithCopies } from './copied-blocks.js';
import { readEksModules } from './eks-module.js';
import { readGkeAutoprovisioning } from './gke-autoprovisioning.js';
import { readHyperPodClusters } from './hyperpod.js';
import { readGkeModules } from './gke-module.js';
import { localModuleWarnings } from './local-modules.js';
import { unreadModuleWarnings } from './unread-modules.js';
import { isTerragruntPath, terragruntCall } from './terragrunt.js';
import { budgetMessage, TerraformBudget } from './expr-budget.js';
import type { Scope } from './expr-eval.js';
import type { Locator } from './locator.js';
import { isTfFile, locatorFor, parseTerraformFile } from './tf-json.js';
import { shadowedByTofu } from './opentofu-files.js';
import { isTfvarsPath, moduleScope } from './module-scope.js';
import { isOverrideFile } from './override-files.js';
import { mergeOverrides } from './override-merge.js';
import type { Placement } from './override-merge.js';
import type { ModuleFile } from './module-scope.js';
import { RESOURCE_KINDS, readResources } from './resources.js';

const POOL_MARKERS = [
  ...Object.keys(RESOURCE_KINDS),
  'eks_managed_node_groups',
  'self_managed_node_groups',
  'node_pools',
  'agents_size',
  'cluster_autoscaling',
  'awscc_sagemaker_cluster',
];

export function isTerraformPath(path: string): boolean {
  return isTfFile(path) || isTfvarsPath(path) || isTerragruntPath(path);
}

/** True when the text may declare a node pool (the only files whose decls are read). */
function declaresPools(text: string): boolean {
  return POOL_MARKERS.some((m) => text.includes(m));
}

/** A call of a module in the same repository, whose GPU inputs get a warning (local-modules.ts); JSON syntax too. */
function callsLocalModule(text: string): boolean {
  return /(?:\bsource\s*=|"source"\s*:)\s*"\.\.?\//.test(text);
}

/** A call of a module from elsewhere, which is warned about when handed GPU types (unread-modules.ts). */
function callsOtherModule(text: string): boolean {
  return /\bmodule\s+"[^"]*"\s*\{|"module"\s*:/.test(text) && /(?:\bsource\s*=|"source"\s*:)\s*"(?!\.\.?\/)/.test(text);
}

/**
 * Terraform node pools: GKE google_container_node_pool and terraform-google-modules/kubernetes-engine
 * `node_pools`, EKS aws_eks_node_group and terraform-aws-modules/eks managed node groups, AKS
 * azurerm_kubernetes_cluster_node_pool and Azure/aks/azurerm `node_pools` and default pool.
 * A module is a directory, so `parseSet` reads a changed file with its siblings (variables,
 * locals, tfvars); `parse` reads one file alone, with what that file declares.
 */
export const terraformParser: CapacityParser = {
  id: 'terraform',
  acceptsPath: isTerraformPath,
  mightContain: (path, text) =>
    isTerraformPath(path) &&
    (declaresPools(text) || callsLocalModule(text) || callsOtherModule(text) || (isTerragruntPath(path) && /\binputs\s*=/.test(text))),
  parse: (path, text) => parseTerraformSet([{ path, text }]),
  parseSet: (files) => parseTerraformSet(files),
  // Files `file()` and `templatefile()` read (a JSON list of instance types, a rendered template).
  references: fileReferences,
};

/**
 * A parsed file of the module. `overridden`: the texts of the override files merged into its
 * blocks, so what looks at the text for a shape (a module source, a pool's resource type) sees
 * what the merge brought in too; `text` stays the file's own, which lines are found in.
 */
export type ParsedTerraform = ModuleFile & { text: string; overridden?: string };

/**
 * The Terraform files of a set parsed, with the module scope (variables, locals, tfvars) they
 * make together, and an error for each file that is not valid HCL. Override files are merged into
 * the blocks they name, as Terraform does before it plans (override-merge.ts); `placements` says
 * where each override block went. The other files of the set (templates, read by `references`)
 * are what `file()` and `templatefile()` read. Evaluation in the scope spends `budget`.
 */
export function parseModule(
  files: readonly SourceFile[],
  budget: TerraformBudget = new TerraformBudget(),
): { parsed: ParsedTerraform[]; scope: Scope; errors: Diagnostic[]; placements: Placement[] } {
  const primaries: ParsedTerraform[] = [];
  const overrides: ParsedTerraform[] = [];
  const errors: Diagnostic[] = [];
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  const dir = moduleDir(files);
  const shadowed = shadowedByTofu(files.map((f) => f.path));
  for (const f of files) {
    // OpenTofu reads `x.tofu` in place of `x.tf`.
    if (!isTerraformPath(f.path) || shadowed.has(f.path)) continue;
    const hcl = parseTerraformFile(f.path, f.text);
    if (!hcl.ok) {
      const line = hcl.error.line === null ? null : clampLine(hcl.error.line, f.text);
      // A broken sibling matters only as far as it may hold values a pool uses.
      errors.push(
        diagnostic(
          f.path,
          line,
          'error',
          `HCL syntax error: ${hcl.error.message}; nothing in this file was read (node pools, variables, locals)`,
        ),
      );
      continue;
    }
    (isOverrideFile(f.path) ? overrides : primaries).push({ path: f.path, body: hcl.value, text: f.text });
  }
  const { parsed, placements } = withOverrides(primaries, overrides);
  const file = (rel: string): string | null => byPath.get(joinPath(dir, rel)) ?? null;
  return { parsed, scope: moduleScope(parsed, { budget, file, bound: PATHS }), errors, placements };
}

/**
 * The primary files with the override files merged in. What the merge cannot apply is left out
 * of the bodies and named by overrideFileErrors (override-files.ts), which makes the folder's
 * changed files not followed.
 */
function withOverrides(
  primaries: ParsedTerraform[],
  overrides: readonly ParsedTerraform[],
): { parsed: ParsedTerraform[]; placements: Placement[] } {
  if (overrides.length === 0) return { parsed: primaries, placements: [] };
  const config = primaries.filter((f) => isTfFile(f.path));
  const merged = mergeOverrides(config, overrides);
  const bodies = new Map(merged.files.map((f) => [f.path, f.body]));
  const texts = new Map(overrides.map((o) => [o.path, o.text]));
  const parsed = primaries.map((f): ParsedTerraform => {
    const from = [...new Set(merged.placements.filter((p) => p.into === f.path).map((p) => p.from))];
    if (from.length === 0) return f;
    return { ...f, body: bodies.get(f.path) ?? f.body, overridden: from.map((p) => texts.get(p) ?? '').join('\n') };
  });
  return { parsed, placements: merged.placements };
}

// `path.module` and the others, as paths relative to the module's folder.
const PATHS = new Map([['path', { module: '.', root: '.', cwd: '.' }]]);

/** The folder of a set's Terraform files (they share one). */
function moduleDir(files: readonly SourceFile[]): string {
  const first = files.find((f) => isTerraformPath(f.path))?.path ?? '';
  return first.lastIndexOf('/') < 0 ? '' : first.slice(0, first.lastIndexOf('/'));
}

/** `dir` joined with a relative path, `.` and `..` folded; an absolute path stays as it is (unread). */
function joinPath(dir: string, rel: string): string {
  if (rel.startsWith('/')) return rel;
  const out = dir === '' ? [] : dir.split('/');
  for (const step of rel.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') out.pop();
    else out.push(step);
  }
  return out.join('/');
}

/**
 * Reads every node pool in the `.tf` files of the set, resolving names across all of them. A set
 * whose expressions go over the evaluation budget is not read: each of its files gets an error
 * naming the budget, and what it declares is kept as count unknown.
 */
export function parseTerraformSet(
  files: readonly SourceFile[],
  budget: TerraformBudget = new TerraformBudget(),
): ParseOutcome & Accounting {
  const result = readTerraformSet(files, budget);
  return budget.exceeded === null ? result : overBudget(files, result, budget.exceeded);
}

/** A reading cut short by the budget: nothing it found is trusted. */
export function overBudget<T extends ParseOutcome>(files: readonly SourceFile[], result: T, why: string): T {
  const message = budgetMessage(why);
  return {
    ...result,
    decls: [],
    unresolved: [...(result.unresolved ?? []), ...result.decls.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name }))],
    diagnostics: [
      ...result.diagnostics.filter((d) => d.severity === 'error'),
      ...files.filter((f) => isTerraformPath(f.path)).map((f) => diagnostic(f.path, null, 'error', message)),
    ],
  };
}

function readTerraformSet(files: readonly SourceFile[], budget: TerraformBudget): ParseOutcome & Accounting {
  const { parsed, scope, errors, placements } = parseModule(files, budget);
  const result: Collected = { decls: [], diagnostics: [...errors], unresolved: [], notFollowed: [] };
  for (const f of parsed) {
    if (isTerragruntPath(f.path)) {
      readTerragrunt(f, scope, result);
      continue;
    }
    if (!isTfFile(f.path)) continue;
    // One locator per file: each scans the whole text once.
    let located: Locator | null = null;
    const loc = (): Locator => (located ??= locatorFor(f.path, f.text));
    // What an override merged in counts as the file's own: a module source it set, say.
    const probe = f.overridden === undefined ? f.text : `${f.text}\n${f.overridden}`;
    if (callsLocalModule(probe)) add(result, localModuleWarnings(f.path, f.body, loc(), scope));
    if (callsOtherModule(probe)) add(result, unreadModuleWarnings(f.path, f.body, loc(), scope));
    if (!declaresPools(probe)) continue;
    const copied = [readEksModules, readGkeModules, readAksModules, readGkeAutoprovisioning, readHyperPodClusters];
    for (const out of [
      readResources(f.path, f.body, loc(), scope),
      ...copied.map((read) => readWithCopies(read, f.path, f.body, loc(), scope)),
    ]) {
      result.decls.push(...out.decls);
      result.unresolved.push(...out.unresolved);
      result.diagnostics.push(...out.diagnostics);
    }
  }
  // `moved` blocks in the module's files: each address found also had the ones they name.
  const moves = movesIn(parsed.filter((f) => isTfFile(f.path)).map((f) => f.body));
  const moved = <T extends { address?: ObjectAddress }>(x: T) => mapAddress(x, (a) => withMoves(a, moves));
  result.decls = result.decls.map(moved);
  result.unresolved = result.unresolved.map(moved);
  // What a values file changes reaches the module calls: their notes go on it too.
  const valueFiles = parsed
    .filter((f) => isTfvarsPath(f.path) || f.body.variable !== undefined || f.body.locals !== undefined)
    .map((f) => f.path);
  result.notFollowed.push(...onValueFiles(result.notFollowed, valueFiles));
  const accounted = overrideAccounting(placements, files, result);
  const { notFollowed, ...found } = result;
  const withAccount = accounted.length === 0 ? {} : { accounted: [...accountedOf(result), ...accounted] };
  return notFollowed.length === 0 ? { ...found, ...withAccount } : { ...result, ...withAccount };
}

type Collected = Required<ParseResult> & { notFollowed: Unfollowed[] };

/** A Terragrunt unit: its module call (source and inputs) read as a `module` block is. */
function readTerragrunt(f: ParsedTerraform, scope: Scope, result: Collected): void {
  add(result, readTerragruntUnit(f.path, f.body, f.text, scope));
}

/**
 * A Terragrunt unit's body (its own, or with what it includes merged in: terragrunt-include.ts)
 * read as the module call it makes, names resolved in `scope`.
 */
export function readTerragruntUnit(path: string, body: Record<string, unknown>, text: string, scope: Scope): ParseOutcome {
  const result: Collected = { decls: [], diagnostics: [], unresolved: [], notFollowed: [] };
  const call = terragruntCall(body, text);
  if (call === null) return result;
  const source = call.source;
  const outs = [
    readEksModules(path, call.body, call.loc, scope),
    readGkeModules(path, call.body, call.loc, scope),
    readAksModules(path, call.body, call.loc, scope),
    readGkeAutoprovisioning(path, call.body, call.loc, scope),
    {
      decls: [],
      unresolved: [],
      ...(source.startsWith('./') || source.startsWith('../')
        ? localModuleWarnings(path, call.body, call.loc, scope)
        : unreadModuleWarnings(path, call.body, call.loc, scope)),
    },
  ];
  for (const out of outs) add(result, out);
  return result;
}

function add(result: Collected, out: Partial<ParseOutcome>): void {
  result.decls.push(...(out.decls ?? []));
  result.unresolved.push(...(out.unresolved ?? []));
  result.diagnostics.push(...(out.diagnostics ?? []));
  result.notFollowed.push(...(out.notFollowed ?? []));
}
