import type { NotFollowed } from '../domain/index.js';
import { fail, ok, type Result } from '../domain/result.js';
import { changedKeys, valueAt } from './kit/changed-keys.js';
import { yamlValue } from './kit/kube-yaml.js';
import type { CoverageIo } from './side-readers.js';
import { namesGpu, sizesCapacity } from './kit/gpu-signal.js';
import { parseHcl } from './terraform/hcl.js';
import { isTfFile, parseTerraformFile } from './terraform/tf-json.js';
import { isHelmValuesPath } from './helm/helm-chart.js';
import { deploymentVars } from './cluster-toolkit/toolkit-deployment.js';
import { dirOf } from './kit/paths.js';
import { escapeRegex } from '../util/escape-regex.js';

/**
 * Files that hold no capacity themselves but hand values to something that does, elsewhere:
 * tfvars with no module beside them, a Terragrunt parent's inputs, Cluster Toolkit deployment
 * vars (a chart's values are rendered into its templates: helm/chart-render.ts). Each is `not-followed` when what it changes could size GPU capacity;
 * when the file names no GPU at all, or changes only what sizes nothing, it has no bearing.
 */
export async function notFollowedInputs(
  changed: readonly string[],
  io: CoverageIo,
  declaring: ReadonlySet<string> = new Set(),
): Promise<NotFollowed[]> {
  const out: NotFollowed[] = [];
  for (const path of changed) {
    // Decided by the path first: a file of no such kind is never read for this.
    const check = checkFor(path);
    // A file some parser found capacity in is read, whatever else it holds.
    if (check === null || declaring.has(path)) continue;
    const [base, head] = await Promise.all([io.base.read(path), io.head.read(path)]);
    if (head === null) continue;
    out.push(...(await check(path, base, head, io)));
  }
  return out;
}

/**
 * A file that only hands values to capacity declared elsewhere, whose changes the checks here judge
 * key by key: tfvars, a Terragrunt parent, chart values, Cluster Toolkit deployment vars. The floor
 * (floor.ts) leaves such a file to them: a GPU name in a value that did not change changes nothing.
 */
export function isInputFile(path: string, text: string): boolean {
  if (isTfvarsPath(path) || isHelmValuesPath(path)) return true;
  if (path.endsWith('.hcl')) {
    const body = hclBody(path, text);
    return body !== null && !isTerragruntUnit(body) && Object.keys(body).every((k) => TERRAGRUNT_KEYS.has(k));
  }
  if (/\.ya?ml$/i.test(path) && /^vars[ \t]*:/m.test(text)) {
    const doc = yamlDoc(text);
    return doc.ok && deploymentVars(doc.value) !== null;
  }
  return false;
}

// Top-level blocks and attributes of a Terragrunt configuration.
const TERRAGRUNT_KEYS = new Set([
  'inputs',
  'locals',
  'include',
  'dependency',
  'dependencies',
  'remote_state',
  'generate',
  'terraform',
  'iam_role',
  'iam_assume_role_duration',
  'retryable_errors',
  'prevent_destroy',
  'skip',
  'download_dir',
  'terraform_binary',
  'terraform_version_constraint',
  'terragrunt_version_constraint',
  'feature',
  'errors',
  'exclude',
]);

function isTerragruntUnit(body: Record<string, unknown>): boolean {
  const terraform = body.terraform;
  const callsModule = Array.isArray(terraform) && terraform.some((t) => t !== null && typeof t === 'object' && 'source' in t);
  return callsModule && body.inputs !== undefined;
}

type Check = (path: string, base: string | null, head: string, io: CoverageIo) => NotFollowed[] | Promise<NotFollowed[]>;

function checkFor(path: string): Check | null {
  if (isTfvarsPath(path)) return tfvarsWithoutModule;
  if (path.endsWith('.hcl')) return terragruntParent;
  if (isHelmValuesPath(path)) return valuesWithoutChart;
  if (/\.ya?ml$/i.test(path)) return toolkitDeployment;
  return null;
}

function isTfvarsPath(path: string): boolean {
  return path.endsWith('.tfvars') || path.endsWith('.tfvars.json');
}

/** The top-level body of an HCL file, or null when it does not parse. */
function hclBody(path: string, text: string | null): Record<string, unknown> | null {
  if (text === null) return {};
  const hcl = path.endsWith('.json') ? parseTerraformFile(path, text) : parseHcl(`${path}.hcl`, text);
  return hcl.ok ? hcl.value : null;
}

/** Changed keys that could size GPU capacity, in a file that names GPUs at either side. */
function gpuKeys(before: unknown, after: unknown, texts: readonly (string | null)[]): string[] {
  if (!texts.some((t) => t !== null && namesGpu(t))) return [];
  return changedKeys(before, after).filter((k) => {
    if (sizesCapacity(k)) return true;
    return [valueAt(before, k), valueAt(after, k)].some((v) => typeof v === 'string' && namesGpu(v));
  });
}

/** Top-level names of leaf paths: `gpu_pool.max_count` → `gpu_pool`. */
function roots(keys: readonly string[]): string[] {
  return [...new Set(keys.map((k) => k.split(/[.[]/)[0] ?? k))];
}

/** Line of the first top-level key assigned in the text (`name =` in HCL, `name:` in YAML). */
function lineOfKey(text: string, key: string): number | null {
  const escaped = escapeRegex(key);
  const m = new RegExp(`^[ \\t]*["']?${escaped}["']?[ \\t]*[=:]`, 'm').exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}

/**
 * A variable file whose module was not found (terraform/follow-modules.ts reads it with the module
 * that declares its variables, above or beside it): what it feeds cannot be read, and the module's
 * defaults may be GPU machines, so a changed value that sizes or picks machines (a sizing key, any
 * number, a GPU name) is not followed, whether or not the file names a GPU.
 */
async function tfvarsWithoutModule(path: string, base: string | null, head: string, io: CoverageIo): Promise<NotFollowed[]> {
  const dir = dirOf(path);
  // Beside a module's .tf files, the tfvars are read with them (the Terraform parser's set).
  if ((await io.list(dir)).some((p) => dirOf(p) === dir && isTfFile(p))) return [];
  const before = hclBody(path, base);
  const after = hclBody(path, head);
  if (after === null) return [];
  // A number may size a pool whatever its name (`replicas`, `n`): the module that reads it is unknown.
  const keys = roots(
    changedKeys(before ?? {}, after).filter(
      (k) =>
        sizesCapacity(k) ||
        [valueAt(before, k), valueAt(after, k)].some((v) => typeof v === 'number' || (typeof v === 'string' && namesGpu(v))),
    ),
  );
  if (keys.length === 0) return [];
  return [{ file: path, line: lineOfKey(head, keys[0] ?? ''), reason: 'tfvars-no-module', subject: path, inputs: keys }];
}

/** A Terragrunt file that only hands inputs to the units that include it. */
function terragruntParent(path: string, base: string | null, head: string): NotFollowed[] {
  const after = hclBody(path, head);
  if (after === null) return [];
  if (isTerragruntUnit(after)) return []; // A unit: the Terraform parser reads it.
  const before = hclBody(path, base) ?? {};
  const pick = (b: Record<string, unknown>) => ({ inputs: b.inputs ?? {}, locals: b.locals ?? {} });
  const keys = gpuKeys(pick(before), pick(after), [base, head]);
  if (keys.length === 0) return [];
  const names = [...new Set(keys.map((k) => k.replace(/^(inputs|locals)(\[\d+\])?\./, '').split(/[.[]/)[0] ?? k))];
  return [{ file: path, line: lineOfKey(head, 'inputs'), reason: 'terragrunt-include', subject: path, inputs: names }];
}

/** A file's YAML as data (an absent file is empty), or why not. */
function yamlDoc(text: string | null): Result<unknown, string> {
  if (text === null) return ok({});
  const value = yamlValue(text);
  return value === undefined ? fail('not valid YAML') : ok(value);
}

/**
 * A values file with no chart beside it (the chart is remote, or elsewhere): what its templates
 * make of the changed values cannot be seen. A chart beside it is rendered (helm/chart-render.ts).
 */
async function valuesWithoutChart(path: string, base: string | null, head: string, io: CoverageIo): Promise<NotFollowed[]> {
  const dir = dirOf(path);
  if ((await io.list(dir)).includes(dir === '' ? 'Chart.yaml' : `${dir}/Chart.yaml`)) return [];
  const before = yamlDoc(base);
  const after = yamlDoc(head);
  if (!after.ok) return [];
  const keys = gpuKeys(before.ok ? before.value : {}, after.value, [base, head]);
  if (keys.length === 0) return [];
  return [{ file: path, line: lineOfKey(head, keys[0]?.split(/[.[]/)[0] ?? ''), reason: 'helm-values', subject: path, inputs: keys }];
}

function toolkitDeployment(path: string, base: string | null, head: string): NotFollowed[] {
  if (!/^vars[ \t]*:/m.test(head)) return [];
  const after = yamlDoc(head);
  const vars = after.ok ? deploymentVars(after.value) : null;
  if (vars === null) return [];
  const before = yamlDoc(base);
  const keys = roots(gpuKeys((before.ok ? deploymentVars(before.value) : null) ?? {}, vars, [base, head]));
  if (keys.length === 0) return [];
  return [{ file: path, line: lineOfKey(head, keys[0] ?? ''), reason: 'toolkit-deployment', subject: path, inputs: keys }];
}
