import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { dirOf } from '../kit/paths.js';
import type { SourceFile } from '../parser.js';
import type { ParamFile } from './params.js';
import { BicepUnknown } from './values.js';
import type { BicepValue } from './values.js';

// `main.parameters.json`, `main.parameters.prod.json`, `main.params.json`: the parameters of `main.bicep`.
const NAMED = /^(.+?)\.param(?:eter)?s(?:\.[\w-]+)?\.json$/i;
const SCHEMA = /deploymentParameters\.json/;

/** Whether a file is an ARM deployment parameter file (`{ "parameters": { "x": { "value": … } } }`). */
export function isJsonParams(path: string, text: string): boolean {
  if (!path.toLowerCase().endsWith('.json') || !/"parameters"\s*:/.test(text)) return false;
  if (SCHEMA.test(text)) return true;
  const parsed = parseJson(text);
  const params = parsed?.['parameters'];
  return (
    typeof params === 'object' &&
    params !== null &&
    !Array.isArray(params) &&
    Object.values(params).every((p) => typeof p === 'object' && p !== null && ('value' in p || 'reference' in p))
  );
}

/** The Bicep template a JSON parameter file is for, by the name az and azd pair them with: `main.parameters.json` → `main.bicep`. */
export function jsonParamsTemplate(path: string): string | null {
  const name = path.slice(dirOf(path).length).replace(/^\//, '');
  const m = NAMED.exec(name);
  if (m?.[1] === undefined) return null;
  const dir = dirOf(path);
  return `${dir === '' ? '' : `${dir}/`}${m[1]}.bicep`;
}

/**
 * A JSON parameter file read as ARM reads it: each parameter's `value` as written (a string stays a
 * string: ARM refuses one for an `int`, so a count written `"1"` is no count), a Key Vault
 * `reference` and a value azd fills from the environment (`"${AZURE_LOCATION}"`) unknown.
 */
export function readJsonParamFile(file: SourceFile): ParamFile & { lines: ReadonlyMap<string, { from: number; to: number }> } {
  const values = new Map<string, BicepValue | BicepUnknown>();
  const lines = new Map<string, { from: number; to: number }>();
  const text = file.text.replace(/^\uFEFF/, '');
  const params = parseJson(text)?.['parameters'];
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
    for (const [name, p] of Object.entries(params as Record<string, unknown>)) {
      const entry = typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
      if ('reference' in entry) values.set(name, new BicepUnknown(`${file.path}: ${name} is a Key Vault reference`));
      else if (!('value' in entry)) values.set(name, new BicepUnknown(`${file.path}: ${name} has no value`));
      else if (JSON.stringify(entry['value']).includes('${'))
        values.set(name, new BicepUnknown(`${file.path}: ${name} is filled from the environment when it is deployed`));
      else values.set(name, entry['value'] as BicepValue);
    }
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false });
  const map = isMap(doc.contents) ? doc.contents.get('parameters', true) : undefined;
  if (isMap(map)) {
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : null;
      const start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      const end = (pair.value as { range?: [number, number, number] } | null)?.range?.[1];
      if (key !== null && start !== undefined && end !== undefined)
        lines.set(key, { from: lc.linePos(start).line, to: lc.linePos(end).line });
    }
  }
  return { path: file.path, using: jsonParamsTemplate(file.path), values, given: (name) => values.get(name), lines };
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
