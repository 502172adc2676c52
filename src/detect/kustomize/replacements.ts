import { z } from 'zod';
import { fail, ok, type Result } from '../../domain/result.js';
import { readYaml, toJson } from '../kit/kube-yaml.js';
import { LineCounter } from 'yaml';
import { touchesCapacity } from './capacity-fields.js';
import { readSlot, scalarText, splitFieldPath, walkFieldPath, writeSlot } from './field-path.js';
import type { Slot, WalkProblem } from './field-path.js';
import { itemLine, resolvePath } from './kustomization.js';
import type { PatchTarget } from './kustomization.js';
import { isObject, jsonText } from './patch-apply.js';
import type { Json, JsonObject } from './patch-apply.js';
import { targetMatches } from './patches.js';
import type { Hit } from './patches.js';
import { spend } from './render-context.js';
import { groupOf } from './render-steps.js';
import type { Ctx, RenderedObject } from './render-context.js';
import { escapeRegex } from '../../util/escape-regex.js';

/**
 * `replacements` as kustomize's replacement filter applies them, last of a kustomization's
 * transformers: each copies one value (a field of the one object its `source` selects, refined by
 * `options.delimiter`/`index`, or a `sourceValue`) into the `fieldPaths` of every object its
 * targets `select` and do not `reject`, creating them with `options.create`. Any kind can be the
 * source. A copy written into a capacity object's GPU fields is reported at the replacement, so a
 * change to the source alone shows as a change of the object. What kustomize would refuse (no
 * source or several, a field missing) fails the build where it writes into a capacity object;
 * what this does not model leaves that object's count unknown, its inputs not followed.
 */

const Selector = z.object({
  group: z.string().optional(),
  version: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labelSelector: z.string().optional(),
  annotationSelector: z.string().optional(),
});
const Options = z.object({ delimiter: z.string().optional(), index: z.number().int().optional(), create: z.boolean().optional() });
const ReplacementSchema = z.object({
  path: z.string().optional(),
  source: Selector.extend({ fieldPath: z.string().optional(), options: Options.optional() }).optional(),
  sourceValue: z.string().optional(),
  targets: z
    .array(
      z.object({
        select: Selector.optional(),
        reject: z.array(Selector).optional(),
        fieldPaths: z.array(z.string()).optional(),
        options: Options.optional(),
      }),
    )
    .optional(),
});
/** A replacement, and the file it was read from when a `path` entry names one. */
type Replacement = z.infer<typeof ReplacementSchema> & { file?: string };
type Options = z.infer<typeof Options>;

const DEFAULT_FIELD_PATH = 'metadata.name';

/** What a replacement copies and the object it comes from, or why kustomize fails or this cannot tell. */
type Source = Result<{ value: Json; from: RenderedObject | null }, WalkProblem>;

export function applyReplacements(ctx: Ctx): void {
  const { k } = ctx;
  (k.spec.replacements ?? []).forEach((entry, i) => {
    const hit: Hit = { file: k.path, line: itemLine(k, 'replacements', i) };
    for (const r of expand(ctx, entry, hit)) {
      if (ctx.out.failed !== undefined) return;
      applyOne(ctx, r, hit);
    }
  });
  ctx.out.objects = ctx.index.all();
  markVars(ctx);
}

const Var = z.object({ name: z.string(), objref: Selector.extend({ apiVersion: z.string().optional() }).optional() });

/**
 * `vars` put another object's field where a field says `$(NAME)`, in the fields kustomize's
 * varReference lists (a `configurations` file may add any): a capacity object that names one is
 * not computed, and the object the var reads is its input, not followed where it changes.
 */
function markVars(ctx: Ctx): void {
  const { k } = ctx;
  (k.spec.vars ?? []).forEach((entry, i) => {
    const parsed = Var.safeParse(entry);
    if (!parsed.success) return;
    const hit: Hit = { file: k.path, line: itemLine(k, 'vars', i) };
    const ref = `$(${parsed.data.name})`;
    const objref = parsed.data.objref;
    for (const o of ctx.index.all()) {
      if (!ctx.isCapacity(o.obj) || !JSON.stringify(o.obj).includes(ref)) continue;
      const source = objref === undefined ? undefined : { kind: objref.kind, name: objref.name };
      notApplied(
        ctx,
        o,
        { kind: 'unknown', why: `it names ${ref}` },
        hit,
        source === undefined ? {} : { source },
        'kustomize `vars` write into it',
      );
    }
  });
}

/** An entry as written, or the replacements of the file its `path` names; a file that cannot be read fails the build. */
function expand(ctx: Ctx, entry: unknown, hit: Hit): Replacement[] {
  const parsed = ReplacementSchema.safeParse(entry);
  if (!parsed.success) {
    ctx.out.failed ??= { ...hit, why: `this replacement cannot be read (${parsed.error.issues[0]?.message ?? 'unexpected shape'})` };
    return [];
  }
  if (parsed.data.path === undefined) return [parsed.data];
  const path = resolvePath(ctx.k.dir, parsed.data.path);
  const text = path === null ? undefined : ctx.sources.text(path);
  if (path === null || text === undefined) {
    ctx.out.failed ??= { ...hit, why: `its replacement file ${parsed.data.path} could not be read` };
    return [];
  }
  ctx.out.sources.push(path);
  // The file is read whole, whatever GPU names its paths hold.
  ctx.out.read.push({ file: path, from: 1, to: text.split('\n').length });
  const docs = readYaml(text, new LineCounter(), { dialect: 'kustomize' });
  const items = docs.flatMap((d) => {
    const json = toJson(d.contents);
    return Array.isArray(json) ? json : [json];
  });
  const read = z.array(ReplacementSchema).safeParse(items);
  if (!read.success || docs.some((d) => d.errors.length > 0)) {
    ctx.out.failed ??= { ...hit, why: `its replacement file ${parsed.data.path} cannot be read` };
    return [];
  }
  return read.data.map((x) => ({ ...x, file: path }));
}

function applyOne(ctx: Ctx, r: Replacement, hit: Hit): void {
  const targets = r.targets ?? [];
  const objects = ctx.index.all();
  if (!spend(ctx, objects.length * Math.max(1, targets.length), 0, hit)) return;
  const source = sourceValue(r, objects);
  if (source.ok && source.value.from?.origin !== undefined)
    readSource(ctx, source.value.from.origin, r.source?.fieldPath ?? DEFAULT_FIELD_PATH);
  for (const t of targets) {
    if (t.select === undefined) {
      if (objects.some((o) => ctx.isCapacity(o.obj)))
        ctx.out.failed ??= { ...hit, why: 'a replacement target selects nothing (`select` missing)' };
      return;
    }
    const select = t.select;
    const paths = (t.fieldPaths ?? [DEFAULT_FIELD_PATH]).map(splitFieldPath);
    for (const o of objects) {
      if (!targetMatches(o.obj, patternOf(select), o.origin?.name)) continue;
      if ((t.reject ?? []).some((rej) => rejects(o, rej))) continue;
      const capacity = ctx.isCapacity(o.obj);
      const pointers = paths.map(
        (segs) => `/${segs.map((s) => (s.kind === 'field' ? s.key : s.kind === 'index' ? String(s.index) : '*')).join('/')}`,
      );
      const writesGpu = touchesCapacity(pointers, jsonText(o.obj.kind), groupOf(o.obj));
      if (!source.ok) {
        if (capacity && (writesGpu || source.error.kind === 'fails')) notApplied(ctx, o, source.error, hit, r);
        continue;
      }
      const { value, from } = source.value;
      const copy = structuredClone(o.obj);
      const problem = writeAll(copy, paths, value, t.options);
      if (problem) {
        if (capacity && (writesGpu || problem.kind === 'fails')) notApplied(ctx, o, problem, hit, r);
        continue;
      }
      const wasCapacity = capacity;
      o.obj = copy;
      ctx.index.update(o);
      if ((wasCapacity || ctx.isCapacity(o.obj)) && writesGpu) {
        o.hits.push(hit);
        (o.fedFrom ??= []).push({ file: from?.origin?.file ?? from?.entry.file ?? r.file ?? hit.file, value });
      }
    }
  }
}

function patternOf(s: z.infer<typeof Selector>): PatchTarget {
  const out: PatchTarget = {};
  for (const key of ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const)
    if (s[key] !== undefined) out[key] = s[key];
  return out;
}

/** A `reject` entry: by id when it names one, by labels and annotations when it names those. */
function rejects(o: RenderedObject, rej: z.infer<typeof Selector>): boolean {
  const { labelSelector, annotationSelector, ...id } = rej;
  const byId = Object.values(id).some((v) => typeof v === 'string' && v !== '');
  const bySelector = labelSelector !== undefined || annotationSelector !== undefined;
  if (byId && targetMatches(o.obj, patternOf(id), o.origin?.name)) return true;
  return bySelector && targetMatches(o.obj, patternOf({ labelSelector, annotationSelector }), o.origin?.name);
}

/**
 * The source field's lines are read: the floor takes a GPU name there as accounted for. They are
 * the lines of the object naming a key of the path or the item a list match selects by, and the
 * whole object where the last key is named on none.
 */
function readSource(ctx: Ctx, origin: { file: string; from: number; to: number }, fieldPath: string): void {
  const key = (k: string) => `^\\s*(?:-\\s+)?["']?${escapeRegex(k)}["']?\\s*:`;
  const segments = splitFieldPath(fieldPath);
  const patterns = segments.flatMap((seg) =>
    seg.kind === 'field' ? [key(seg.key)] : seg.kind === 'match' ? [`${key(seg.field)}\\s*["']?${escapeRegex(seg.value)}["']?\\s*$`] : [],
  );
  const last = segments.at(-1);
  const lastPattern = last?.kind === 'field' ? new RegExp(key(last.key)) : null;
  const any = new RegExp(patterns.join('|') || '(?!)');
  const lines = (ctx.sources.text(origin.file) ?? '').split('\n');
  let lastFound = false;
  for (let line = origin.from; line <= origin.to; line++) {
    const text = lines[line - 1] ?? '';
    if (!any.test(text)) continue;
    ctx.out.read.push({ file: origin.file, from: line, to: line });
    if (lastPattern?.test(text)) lastFound = true;
  }
  if (!lastFound) ctx.out.read.push({ file: origin.file, from: origin.from, to: origin.to });
}

/** The one object `source` names (exactly, by its current or loaded name), and its field. */
function sourceValue(r: Replacement, objects: readonly RenderedObject[]): Source {
  if (r.sourceValue !== undefined && r.source !== undefined)
    return fail({ kind: 'fails', why: 'value and resource selectors are mutually exclusive' });
  if (r.sourceValue !== undefined) return ok({ value: r.sourceValue, from: null });
  if (r.source === undefined || r.targets === undefined)
    return fail({ kind: 'fails', why: 'replacements must specify a source and at least one target' });
  const s = r.source;
  const matches = objects.filter((o) => selectsExactly(o, s));
  if (matches.length !== 1)
    return fail({ kind: 'fails', why: matches.length === 0 ? 'its source selects nothing' : 'its source selects several objects' });
  const from = matches[0] as RenderedObject;
  const walked = walkFieldPath(from.obj, splitFieldPath(s.fieldPath ?? DEFAULT_FIELD_PATH), false);
  if (!walked.ok) return walked;
  if (walked.value.length > 1) return fail({ kind: 'unknown', why: 'its source fieldPath names several fields' });
  const found = walked.value[0] === undefined ? undefined : readSlot(walked.value[0]);
  if (found === undefined || found === null || (typeof found === 'object' && Object.keys(found).length === 0))
    return fail({ kind: 'fails', why: `fieldPath \`${s.fieldPath ?? DEFAULT_FIELD_PATH}\` is missing for the replacement source` });
  if (s.options?.delimiter === undefined || s.options.delimiter === '') return ok({ value: found, from });
  const text = scalarText(found);
  if (text === null) return fail({ kind: 'fails', why: 'delimiter option can only be used with scalar nodes' });
  const parts = text.split(s.options.delimiter);
  const index = s.options.index ?? 0;
  if (index < 0 || index >= parts.length) return fail({ kind: 'fails', why: `options.index ${index} is out of bounds for value ${text}` });
  // The refined value keeps the source's type, as kyaml copies the node and sets its text.
  const part = parts[index] ?? '';
  return ok({ value: typeof found === 'string' ? part : (plain(part) ?? part), from });
}

function selectsExactly(o: RenderedObject, s: z.infer<typeof Selector>): boolean {
  const [group, version] = apiParts(jsonText(o.obj.apiVersion));
  const meta = isObject(o.obj.metadata) ? o.obj.metadata : {};
  const names = [jsonText(meta.name), ...(o.origin ? [o.origin.name] : [])];
  if (s.kind !== undefined && s.kind !== '' && s.kind !== jsonText(o.obj.kind)) return false;
  if (s.group !== undefined && s.group !== '' && s.group !== group) return false;
  if (s.version !== undefined && s.version !== '' && s.version !== version) return false;
  if (s.name !== undefined && s.name !== '' && !names.includes(s.name)) return false;
  const ns = jsonText(meta.namespace);
  return s.namespace === undefined || s.namespace === '' || s.namespace === ns || (s.namespace === 'default' && ns === '');
}

function apiParts(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** Writes `value` at every path: null when done, else why kustomize fails or this cannot tell. */
function writeAll(
  obj: JsonObject,
  paths: readonly ReturnType<typeof splitFieldPath>[],
  value: Json,
  options: Options | undefined,
): WalkProblem | null {
  for (const segs of paths) {
    const walked = walkFieldPath(obj, segs, options?.create === true);
    if (!walked.ok) return walked.error;
    if (walked.value.length === 0) return { kind: 'fails', why: 'a target fieldPath names no field of the object' };
    for (const slot of walked.value) {
      const problem = writeOne(slot, value, options);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * kyaml's setFieldValue: into a scalar only the text is copied (the field keeps its type, so a
 * number stays a number), with `delimiter` the text replaces one part of the field's; a map or a
 * list is replaced whole.
 */
function writeOne(slot: Slot, value: Json, options: Options | undefined): WalkProblem | null {
  const old = readSlot(slot);
  let text = scalarText(value);
  if (options?.delimiter !== undefined && options.delimiter !== '') {
    const oldText = scalarText(old);
    if (oldText === null || text === null) return { kind: 'fails', why: 'delimiter option can only be used with scalar nodes' };
    const parts = oldText.split(options.delimiter);
    const index = options.index ?? 0;
    if (index < 0) parts.unshift(text);
    else if (index >= parts.length) parts.push(text);
    else parts[index] = text;
    text = parts.join(options.delimiter);
  }
  if (old !== undefined && old !== null && typeof old === 'object') {
    writeSlot(slot, value);
    return null;
  }
  if (text === null) return { kind: 'unknown', why: 'a map or list is copied into a scalar field' };
  if (typeof old === 'string') {
    writeSlot(slot, text);
    return null;
  }
  // A field made by `create` has no type of its own: its text reads as a plain scalar.
  const typed = plain(text);
  if (typed === undefined)
    return { kind: 'unknown', why: `the value ${JSON.stringify(text.slice(0, 40))} reads differently in YAML 1.1 and 1.2` };
  if (old !== undefined && kindOf(typed) !== kindOf(old))
    return {
      kind: 'unknown',
      why: `the text ${JSON.stringify(text.slice(0, 40))} does not fit the ${kindOf(old)} field it is copied into`,
    };
  writeSlot(slot, typed);
  return null;
}

function kindOf(value: Json): string {
  return value === null ? 'null' : typeof value;
}

/**
 * A plain scalar's value as text in a typed field: a decimal number, a boolean, null, or the text.
 * Forms YAML 1.1 reads otherwise (`010`, `0x10`, `1_000`, `yes`, `1:30`) are undefined.
 */
function plain(text: string): Json | undefined {
  if (/^[-+]?0[0-9_]+$|^[-+]?0[xXoObB]|_|^[-+]?\d+(?::[0-5]?\d)+$|^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(text))
    return undefined;
  if (/^[-+]?(?:\d+|\d*\.\d+|\d+\.\d*)(?:[eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~' || text === '') return null;
  return text;
}

/** A capacity object the replacement writes but cannot be worked out: the build's failure, or count unknown with its inputs not followed. */
function notApplied(
  ctx: Ctx,
  o: RenderedObject,
  problem: WalkProblem,
  hit: Hit,
  r: Replacement,
  what = 'a replacement writes its GPU fields in a way not worked out',
): void {
  if (problem.kind === 'fails') {
    ctx.out.failed ??= { ...hit, why: `kustomize cannot apply this replacement: ${problem.why}` };
    return;
  }
  o.unknownAt = hit;
  const from = o.replacedFrom ?? { inputs: [o.obj], files: [hit.file, o.origin?.file ?? o.entry.file] };
  const source = r.source;
  for (const s of source === undefined ? [] : ctx.index.all().filter((x) => selectsExactly(x, source))) {
    from.inputs.push(s.obj);
    from.files.push(s.origin?.file ?? s.entry.file);
  }
  if (r.sourceValue !== undefined) from.inputs.push(r.sourceValue);
  o.replacedFrom = from;
  ctx.out.notes.push({
    file: hit.file,
    line: hit.line,
    severity: 'warning',
    message: `${jsonText(o.obj.kind)} ${jsonText(isObject(o.obj.metadata) ? o.obj.metadata.name : undefined) || '(unnamed)'}: ${what} (${problem.why}); the GPU count is not computed`,
  });
}
