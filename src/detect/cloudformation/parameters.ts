import { dirOf } from '../kit/paths.js';

// `x-parameters.json`, `x-params.json`, `x.parameters.json`, `x_params.prod.json`: the parameters of `x`.
const PARAM_NAME = /^(.+?)[-_.]param(?:eter)?s(?:[-_.][\w-]+)?\.json$/i;
const TEMPLATE_EXTENSIONS = ['yml', 'yaml', 'json', 'template', 'template.yaml', 'template.json'];

/**
 * A CloudFormation parameter file's values by parameter: the AWS CLI's
 * `[{ "ParameterKey": …, "ParameterValue": … }]` or a pipeline's `{ "Parameters": { … } }`.
 * A value kept from the deployed stack (`UsePreviousValue`) is null. Null for any other file.
 */
export function cfnParameters(path: string, text: string): ReadonlyMap<string, string | null> | null {
  if (!path.toLowerCase().endsWith('.json') || !/"Param/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  const out = new Map<string, string | null>();
  if (Array.isArray(parsed) && parsed.length > 0) {
    for (const p of parsed) {
      if (typeof p !== 'object' || p === null || typeof (p as Record<string, unknown>)['ParameterKey'] !== 'string') return null;
      const e = p as Record<string, unknown>;
      const v = e['ParameterValue'];
      const scalar = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
      out.set(e['ParameterKey'] as string, e['UsePreviousValue'] === true || !scalar ? null : String(v));
    }
    return out;
  }
  const obj = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  const params = obj?.['Parameters'];
  if (obj === null || typeof params !== 'object' || params === null || Array.isArray(params)) return null;
  if (!Object.keys(obj).every((k) => ['Parameters', 'Tags', 'StackPolicy'].includes(k))) return null;
  for (const [k, v] of Object.entries(params)) out.set(k, typeof v === 'object' && v !== null ? null : String(v));
  return out;
}

/** Whether a path is named as a parameter file (`x-parameters.json`, `x.params.prod.json`). */
export function isNamedParamFile(path: string): boolean {
  return PARAM_NAME.test(path.slice(dirOf(path).length).replace(/^\//, ''));
}

/** The files paired with this one by name: a parameter file's template, or a template's parameter files. */
export function pairedPaths(path: string): string[] {
  const dir = dirOf(path);
  const name = path.slice(dir.length).replace(/^\//, '');
  const at = (n: string) => (dir === '' ? n : `${dir}/${n}`);
  const m = PARAM_NAME.exec(name);
  if (m?.[1] !== undefined) {
    const stem = m[1];
    return TEMPLATE_EXTENSIONS.map((e) => at(`${stem}.${e}`)).filter((p) => p !== path);
  }
  const stem = name.replace(/\.(?:template\.)?(?:ya?ml|json|template)$/i, '');
  if (stem === name) return [];
  return ['-parameters', '-params', '.parameters', '.params', '_parameters', '_params'].map((s) => at(`${stem}${s}.json`));
}
