import type { NotFollowed, TreeReader } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { isJsonParams, jsonParamsTemplate } from './bicep/json-params.js';
import { usingOf } from './bicep/params.js';

/** Resource types the Bicep reader counts (bicep/): AKS clusters and their agent pools. */
const READ_TYPES = /^Microsoft\.ContainerService\/managedClusters(\/agentPools)?@/i;
const RESOURCE = /^resource\s+[A-Za-z_]\w*\s+'([^']+)'/;
const PARAM_LINE = /^\s*param\s+([A-Za-z_]\w*)\s*=/;

/**
 * A Bicep parameter file (`.bicepparam`, or `main.parameters.json` beside `main.bicep`) whose
 * changed value names no GPU while its template hands it to a resource no reader counts that
 * names a GPU (a scale set's `capacity` beside an `Standard_NC…` SKU, an Azure ML cluster's node
 * count): the Bicep reader reads AKS pools only, and the scan finds no GPU name in the changed
 * file, so the change would pass as none. It is not followed (`parameter-file`, naming the
 * template). A parameter reaching the resource through a `var` or a module is not traced here.
 */
export async function bicepParamReach(
  file: string,
  texts: { before: string | null; after: string | null },
  sides: { base: TreeReader; head: TreeReader },
): Promise<NotFollowed[]> {
  const text = texts.after ?? texts.before;
  if (text === null) return [];
  const template = templateOf(file, text);
  if (template === null) return [];
  const [before, after] = [valuesOf(file, texts.before), valuesOf(file, texts.after)];
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k)).sort();
  if (changed.length === 0) return [];
  const reader = texts.after === null ? sides.base : sides.head;
  const body = await reader.read(template);
  if (body === null) return [];
  const reached = changed.filter((k) => unreadGpuUses(template, body, k));
  if (reached.length === 0) return [];
  return [{ file, line: null, reason: 'parameter-file', subject: template, needs: template, inputs: reached }];
}

/** The template a parameter file sets, or null when it is not a Bicep parameter file. */
function templateOf(file: string, text: string): string | null {
  if (file.endsWith('.bicepparam')) return usingOf({ path: file, text }) ?? null;
  if (file.toLowerCase().endsWith('.json') && isJsonParams(file, text)) return jsonParamsTemplate(file);
  return null;
}

/** Each parameter's value as written (its text), to compare across the sides. */
function valuesOf(file: string, text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (text === null) return out;
  if (file.endsWith('.bicepparam')) {
    // A value runs from its `param` line to the next one (an object or array over several lines).
    let name: string | null = null;
    for (const line of text.split('\n')) {
      const m = PARAM_LINE.exec(line);
      if (m?.[1] !== undefined) name = m[1];
      if (name !== null) out.set(name, `${out.get(name) ?? ''}${line.trim()}\n`);
    }
    return out;
  }
  try {
    const params = (JSON.parse(text.replace(/^\uFEFF/, '')) as { parameters?: unknown }).parameters;
    if (typeof params === 'object' && params !== null) for (const [k, v] of Object.entries(params)) out.set(k, JSON.stringify(v));
  } catch {
    // A file that does not parse is the Bicep reader's to report.
  }
  return out;
}

/**
 * The template reads the parameter inside a top-level resource no reader counts whose text names
 * a GPU machine type, accelerator or GPU resource (a key with `gpu` in it makes no machines).
 */
function unreadGpuUses(path: string, template: string, name: string): boolean {
  const lines = template.split('\n');
  const use = new RegExp(`\\b${name}\\b`);
  for (let i = 0; i < lines.length; i++) {
    const type = RESOURCE.exec(lines[i] ?? '')?.[1];
    if (type === undefined) continue;
    let end = i + 1;
    while (end < lines.length && !/^\}/.test(lines[end] ?? '')) end++;
    const block = lines.slice(i, end + 1);
    if (READ_TYPES.test(type) || !block.some((l) => use.test(l))) continue;
    const gpu = accountSignals(path, block.join('\n')).signals.some((s) => s.by === null && s.kind !== 'gpu-key');
    if (gpu) return true;
  }
  return false;
}
