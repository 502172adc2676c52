import type { NotFollowed, TreeReader } from '../domain/index.js';
import { isJsonParams, jsonParamsTemplate } from './bicep/json-params.js';
import { cloudFormationParser } from './cloudformation/index.js';
import { pairedPaths } from './cloudformation/parameters.js';
import { namesGpu } from './kit/gpu-signal.js';
import { dirOf } from './kit/paths.js';
import { accountSignals } from './kit/signal-scan/account.js';

/** Candidate templates read per parameter file, so one review's cost stays bounded. */
const MAX_CANDIDATES = 64;
const CFN_TEMPLATE = /AWSTemplateFormatVersion|^\s*"?Resources"?\s*:[\s\S]*\bAWS::/m;
const ARM_TEMPLATE = /deploymentTemplate\.json/;

type Values = ReadonlyMap<string, unknown>;

/**
 * Deployment parameter files whose template no reader reads: an ARM template's
 * (`azuredeploy.parameters.json` beside `azuredeploy.json`) and a CloudFormation stack's (the
 * `[{ "ParameterKey": …, "ParameterValue": … }]` of `aws cloudformation create-stack
 * --parameters file://…`, or a pipeline's `{ "Parameters": { … } }`). They name no GPU, so the
 * floor passes them, while the values they change size what the template declares. A changed
 * parameter is judged by the templates near the file that declare what it sets (its folder and
 * the one above): where one of them names GPUs, the change is not followed; where none names any,
 * it is no capacity; where none is found, a changed number, switch or list is not followed, as the
 * template it feeds could size GPU pools with it. The parameter files of a Bicep template are
 * read with it (bicep/) and are not judged here.
 */
export async function paramFileNotFed(
  file: string,
  texts: { before: string | null; after: string | null },
  sides: { base: TreeReader; head: TreeReader; list: (dir: string) => Promise<string[]> },
): Promise<NotFollowed[]> {
  const kind = [texts.after, texts.before].map((t) => (t === null ? null : paramKind(file, t))).find((k) => k !== null) ?? null;
  if (kind === null) return [];
  const before = texts.before === null ? new Map<string, unknown>() : valuesOf(kind, texts.before);
  const after = texts.after === null ? new Map<string, unknown>() : valuesOf(kind, texts.after);
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
    (k) => JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k)),
  );
  if (changed.length === 0) return [];
  // A parameter file its template's reader takes with it (bicep/, cloudformation/) is judged there.
  const reader0 = texts.after === null ? sides.base : sides.head;
  if (kind === 'arm') {
    const bicep = jsonParamsTemplate(file);
    if (bicep !== null && ((await sides.head.read(bicep)) !== null || (await sides.base.read(bicep)) !== null)) return [];
  } else {
    for (const p of pairedPaths(file)) {
      const t = await reader0.read(p);
      if (t !== null && cloudFormationParser.mightContain(p, t)) return [];
    }
  }
  const reader = texts.after === null ? sides.base : sides.head;
  const keys = [...(texts.after === null ? before : after).keys()];
  const templates = await templatesFor(file, kind, keys, reader, sides.list);
  const base = { file, line: null, reason: 'parameter-file' as const, inputs: changed };
  const sizes = (k: string) => sizing(before.get(k)) || sizing(after.get(k));
  if (templates.length > 0) {
    const gpu = templates.find((t) => namesGpus(t.path, t.text));
    // A name or a tag sizes nothing, unless the template decides by it what it creates (a condition).
    const feeds = gpu !== undefined && changed.some((k) => sizes(k) || decidesBy(gpu.text, k));
    return feeds ? [{ ...base, subject: gpu.path, needs: gpu.path }] : [];
  }
  return changed.some(sizes) ? [{ ...base, subject: file }] : [];
}

type Kind = 'arm' | 'cfn';

function paramKind(path: string, text: string): Kind | null {
  if (!path.toLowerCase().endsWith('.json')) return null;
  if (isJsonParams(path, text)) return 'arm';
  const parsed = parseJson(text);
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => typeof p === 'object' && p !== null && 'ParameterKey' in p))
    return 'cfn';
  if (
    isObject(parsed) &&
    isObject(parsed['Parameters']) &&
    Object.keys(parsed).every((k) => ['Parameters', 'Tags', 'StackPolicy'].includes(k))
  )
    return 'cfn';
  return null;
}

function valuesOf(kind: Kind, text: string): Values {
  const parsed = parseJson(text);
  const out = new Map<string, unknown>();
  if (kind === 'arm' && isObject(parsed) && isObject(parsed['parameters'])) {
    for (const [k, v] of Object.entries(parsed['parameters'])) out.set(k, isObject(v) ? (v['value'] ?? v['reference'] ?? null) : v);
  } else if (Array.isArray(parsed)) {
    for (const p of parsed) if (isObject(p) && typeof p['ParameterKey'] === 'string') out.set(p['ParameterKey'], p['ParameterValue'] ?? p);
  } else if (isObject(parsed) && isObject(parsed['Parameters'])) {
    for (const [k, v] of Object.entries(parsed['Parameters'])) out.set(k, v);
  }
  return out;
}

/** The templates of the file's folder and the one above that declare every parameter it sets. */
async function templatesFor(
  file: string,
  kind: Kind,
  keys: readonly string[],
  reader: TreeReader,
  list: (dir: string) => Promise<string[]>,
): Promise<{ path: string; text: string }[]> {
  const dir = dirOf(file);
  const dirs = dir === '' ? [''] : [dir, dirOf(dir)];
  const paths = (await Promise.all(dirs.map((d) => list(d)))).flat().filter((p) => p !== file && /\.(json|ya?ml|template)$/i.test(p));
  const out: { path: string; text: string }[] = [];
  for (const path of paths.slice(0, MAX_CANDIDATES)) {
    const text = await reader.read(path);
    if (text === null || !(kind === 'arm' ? ARM_TEMPLATE : CFN_TEMPLATE).test(text)) continue;
    if (keys.every((k) => new RegExp(`^\\s*["']?${k.replace(/[^\w]/g, '')}["']?\\s*:`, 'm').test(text))) out.push({ path, text });
  }
  return out;
}

/** The template compares the parameter in a condition (`Fn::Equals`, `!If`, ARM's `equals(`/`if(`): its value picks what is made. */
function decidesBy(template: string, key: string): boolean {
  const name = key.replace(/[^\w]/g, '');
  return template.split('\n').some((l) => l.includes(name) && /Equals|equals\(|\bif\(|Fn::If|!If|Condition/.test(l));
}

/** A template names GPUs where the scan finds a name that no context shows to be no capacity. */
function namesGpus(path: string, text: string): boolean {
  return accountSignals(path, text).signals.some((s) => s.by === null || s.by === 'parser');
}

/** A value that could size capacity: a number (CloudFormation writes them as strings), a switch, a list or map, or a GPU name. */
function sizing(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'object' && v !== null)) return true;
  return typeof v === 'string' && (/^\s*-?\d+(\.\d+)?\s*$/.test(v) || /^(true|false)$/i.test(v) || namesGpu(v));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
