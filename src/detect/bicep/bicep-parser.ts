import { diagnostic } from '../../domain/index.js';
import { Budget, BudgetExceeded } from '../kit/eval-budget.js';
import { dirOf } from '../kit/paths.js';
import type { Accounting, CapacityParser, Coverage, SetParseResult, SourceFile, Unfollowed } from '../parser.js';
import { paramLines } from './accounting.js';
import type { PoolsFound } from './aks-pools.js';
import { localModulePath } from './modules.js';
import { isJsonParams, jsonParamsTemplate, readJsonParamFile } from './json-params.js';
import { deploymentName, readParamFile, usingOf } from './params.js';
import type { ParamFile } from './params.js';
import { readTemplate } from './template-read.js';

const isBicep = (path: string): boolean => path.endsWith('.bicep');
const isParams = (path: string): boolean => path.endsWith('.bicepparam');
// An ARM JSON parameter file named for a Bicep template (`main.parameters.json`), as az and azd deploy them.
const isJsonNamed = (path: string): boolean => jsonParamsTemplate(path) !== null;
const MARKERS = /Microsoft\.ContainerService\/managedClusters|container-service\/managed-cluster/;
const MODULE = /^\s*module\s+[A-Za-z_]\w*\s+'([^']+)'/gm;

/**
 * AKS GPU node pools in Bicep (see aks-pools.ts), read per deployment: a template with each
 * parameter file that names it (`using './main.bicep'`; an older file naming none sets the
 * templates beside it), and a template no parameter file or module call uses, with its defaults.
 * Modules of the repository are read with the parameters their call gives (modules.ts). A
 * parameter with no value is a warning at the line that reads it, never a guess.
 */
export const bicepParser: CapacityParser = {
  id: 'bicep',
  acceptsPath: (path) => isBicep(path) || isParams(path) || isJsonNamed(path),
  mightContain: (path, text) =>
    (isBicep(path) && (MARKERS.test(text) || /^\s*module\s/m.test(text))) ||
    (isParams(path) && /^\s*(param|using)\s/m.test(text)) ||
    (isJsonNamed(path) && isJsonParams(path, text)),
  parse: (path, text) => parseBicepSet([{ path, text }]),
  parseSet: parseBicepSet,
  // The template a parameter file sets, and the modules a template calls: read with them.
  references: (file) => {
    if (isJsonNamed(file.path)) return isJsonParams(file.path, file.text) ? [jsonParamsTemplate(file.path) as string] : [];
    if (isParams(file.path)) {
      const using = usingOf(file);
      return typeof using === 'string' ? [using] : [];
    }
    return isBicep(file.path) ? calledModules(file) : [];
  },
};

// A parameter a template declares: `param name type`, decorators on the lines above.
const DECLARED_PARAM = /^[ \t]*param[ \t]+([A-Za-z_]\w*)\b/gm;

/**
 * A JSON parameter file whose template by name is not here (the template renamed, the file named
 * for a compiled `azuredeploy.json`) set to each template beside it that declares most of the
 * parameters it gives: az deploys it with whichever template the command names, and a default it may
 * override is never taken as deployed. A file that fits no template beside it sets an ARM
 * template: not this reader's.
 */
function pairedByContent(p: ReturnType<typeof readJsonParamFile>, templates: ReadonlyMap<string, string>): ParamFile[] {
  if (typeof p.using === 'string' && templates.has(p.using)) return [];
  const names = [...p.values.keys()];
  if (names.length === 0) return [];
  return [...templates]
    .filter(([t, text]) => {
      if (dirOf(t) !== dirOf(p.path)) return false;
      const declared = new Set([...text.matchAll(DECLARED_PARAM)].map((m) => m[1]));
      // Most, not all: a file kept beside a template often carries a parameter it no longer declares.
      return names.filter((n) => declared.has(n)).length * 2 >= names.length;
    })
    .map(([t]) => ({ ...p, using: t }));
}

/** Repository paths of the local modules a template calls. */
function calledModules(file: SourceFile): string[] {
  return [...file.text.matchAll(MODULE)]
    .map((m) => localModulePath(file.path, m[1] ?? ''))
    .filter((p): p is string => p !== null && p.endsWith('.bicep'));
}

interface Deployment {
  template: string;
  params: ParamFile | null;
}

export function parseBicepSet(files: readonly SourceFile[]): SetParseResult & Coverage & Accounting {
  const result: Required<SetParseResult & Accounting> & { notFollowed: Unfollowed[] } = {
    decls: [],
    diagnostics: [],
    unresolved: [],
    notFollowed: [],
    supersedes: [],
    replaces: [],
    accounted: [],
  };
  const budget = new Budget();
  const templates = new Map(files.filter((f) => isBicep(f.path)).map((f) => [f.path, f.text]));
  try {
    const jsonParams = files.filter((f) => isJsonNamed(f.path) && isJsonParams(f.path, f.text)).map(readJsonParamFile);
    const params = [
      ...files.filter((f) => isParams(f.path)).map((f) => readParamFile(f, budget)),
      ...jsonParams.filter((p) => typeof p.using === 'string' && templates.has(p.using)),
      ...jsonParams.flatMap((p) => pairedByContent(p, templates)),
    ];
    const deployments: Deployment[] = [];
    for (const p of params) {
      // An older parameter file that names no template sets those beside it.
      const targets =
        p.using === undefined ? [...templates.keys()].filter((t) => dirOf(t) === dirOf(p.path)) : p.using === null ? [] : [p.using];
      if (typeof p.using === 'string' && !templates.has(p.using)) result.notFollowed.push(...templateNotes(p, p.using));
      for (const template of targets) if (templates.has(template)) deployments.push({ template, params: p });
    }
    const called = new Set(files.filter((f) => isBicep(f.path)).flatMap(calledModules));
    for (const template of templates.keys()) {
      if (!called.has(template) && !deployments.some((d) => d.template === template)) deployments.push({ template, params: null });
    }
    for (const d of deployments) {
      const several = deployments.filter((x) => x.template === d.template).length > 1;
      const read = readDeployment(d, templates, budget);
      const rival = rivalOf(d, deployments);
      const found = rival === null ? read : unknownCounts(read, d, rival);
      const named = (n: string) => (several && d.params !== null ? `${n} [${deploymentName(d.params.path)}]` : n);
      result.decls.push(...found.decls.map((x) => ({ ...x, name: named(x.name) })));
      result.unresolved.push(...found.unresolved.map((x) => ({ ...x, name: named(x.name) })));
      result.diagnostics.push(...found.diagnostics);
      result.notFollowed.push(...found.notFollowed);
      result.accounted.push(...found.accounted);
      if (d.params !== null) {
        result.notFollowed.push(...onParamFile(found, d.params));
        const text = files.find((f) => f.path === d.params?.path)?.text ?? '';
        const json = jsonParams.find((p) => p.path === d.params?.path);
        if (json !== undefined) {
          for (const [name, span] of json.lines) if (found.params.has(name)) result.accounted.push({ file: json.path, ...span });
        } else result.accounted.push(...paramLines(d.params.path, text, (name) => found.params.has(name)));
      }
    }
  } catch (err) {
    if (!(err instanceof BudgetExceeded)) throw err;
    // Cut short: nothing read is trusted, and the pools found so far are kept as count unknown.
    result.unresolved.push(...result.decls.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name })));
    result.decls = [];
    result.accounted = [];
    for (const f of files) {
      result.diagnostics.push(
        diagnostic(
          f.path,
          null,
          'error',
          `evaluating the Bicep read with this file went over gpu-justify's budget (${err.message}); its AKS node pools are not read`,
        ),
      );
    }
  }
  const { notFollowed, ...found } = result;
  return notFollowed.length === 0 ? found : result;
}

/**
 * A deployment whose parameter file has a rival of the other format beside it for the same
 * template (`main.bicepparam` and `main.parameters.json`): az, azd and pipelines each pick one
 * (a file converted by `az bicep decompile-params` is often kept beside its source), and which one
 * this repository deploys is not written anywhere the review reads. Null when it has no such rival.
 */
function rivalOf(d: Deployment, deployments: readonly Deployment[]): string | null {
  const own = d.params?.path;
  if (own === undefined) return null;
  const rival = deployments.find(
    (x) =>
      x.template === d.template && x.params !== null && dirOf(x.params.path) === dirOf(own) && isParams(x.params.path) !== isParams(own),
  );
  return rival?.params?.path ?? null;
}

/** A rivalled deployment's pools, read, with counts unknown: never taken from either file. */
function unknownCounts(found: ReturnType<typeof readTemplate>, d: Deployment, rival: string): ReturnType<typeof readTemplate> {
  if (found.decls.length === 0) return found;
  const own = d.params?.path ?? d.template;
  const unresolved = found.decls.map((x) => ({ file: x.file, line: x.line, kind: x.kind, name: x.name }));
  const why = diagnostic(
    own,
    null,
    'warning',
    `${own} and ${rival} both set the parameters of ${d.template}, and which one is deployed is not known; the GPUs of its pools (${found.decls.map((x) => x.name).join(', ')}) are not counted from either`,
  );
  return { ...found, decls: [], unresolved: [...found.unresolved, ...unresolved], diagnostics: [...found.diagnostics, why] };
}

function readDeployment(d: Deployment, templates: ReadonlyMap<string, string>, budget: Budget): ReturnType<typeof readTemplate> {
  if (d.params === null)
    return readTemplate(d.template, () => undefined, 'in a parameter file that names this template', { templates, budget, chain: [] });
  return readTemplate(d.template, d.params.given, `in ${d.params.path}`, { templates, budget, chain: [] });
}

/**
 * What a parameter file changes reaches what its template hands on: the template's notes (a module
 * not read) land on it too, and so does a pool whose count is unknown, fingerprinted by the values
 * the file gives, so a parameter file whose values did not change is not flagged.
 */
function onParamFile(found: PoolsFound, params: ParamFile): Unfollowed[] {
  const notes: Unfollowed[] = found.notFollowed.map((n) => ({ ...n, file: params.path, line: null }));
  const values = JSON.stringify([...params.values].map(([k, v]) => [k, v instanceof Error ? `unknown: ${v.message}` : v]));
  for (const u of found.unresolved) {
    notes.push({ file: params.path, line: null, reason: 'count-unknown', subject: u.name, fingerprint: values });
  }
  return notes;
}

/** A parameter file whose template is not in the tree: what its values size cannot be seen. */
function templateNotes(params: ParamFile, template: string): Unfollowed[] {
  return [...params.values].map(([name, v]) => ({
    file: params.path,
    line: null,
    reason: 'local-module' as const,
    subject: template,
    needs: template,
    inputs: [name],
    fingerprint: JSON.stringify([name, v instanceof Error ? `unknown: ${v.message}` : v]),
  }));
}
