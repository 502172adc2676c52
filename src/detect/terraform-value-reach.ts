import type { NotFollowed } from '../domain/index.js';
import { accountSignals } from './kit/signal-scan/account.js';
import { hclBlocks, localEntries, within } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { mergedModuleSources } from './terraform/merged-module-sources.js';
import { isTfFile } from './terraform/tf-json.js';
import { moduleFeeds, ownModuleDir } from './terraform-feeds.js';
import type { ModuleFeeds } from './terraform-feeds.js';
import { isLocalUnit, unitInputs, unitModule } from './terragrunt-feeds.js';
import type { TfvarsSide } from './tfvars-feeds.js';

/** A value a Terraform file hands on: a variable (its default), a local, an argument of a call of this repository's module. */
interface Value {
  key: string;
  subject: string;
  from: number;
  to: number;
  text: string;
  /** A call's `count` or `for_each`: it copies what the module builds, read or not. */
  copies?: true;
}

// Arguments of a module block that are Terraform's, not the module's variables.
const META = new Set(['source', 'version', 'providers', 'depends_on']);

/**
 * A changed Terraform file's values that changed (a variable's default, a local, what a call of
 * a module of this repository is given), where one feeds what is not read while its module, or a
 * module of this repository it calls, names a GPU machine type, accelerator or GPU resource that
 * nothing reads, block by block (terraform-feeds.ts `reachedGpu`): `count = var.workers` on an
 * `aws_instance` of `p5.48xlarge`, with `workers` changed in variables.tf; a value sizing only a CPU
 * group beside it reaches none. The file names no GPU, so the scan alone
 * would find it no capacity; what it sizes is a GPU declaration the review cannot count, so it is
 * not followed. One entry per file, at its first such value.
 */
export async function changedValuesReach(
  file: string,
  texts: { before: string | null; after: string | null },
  sides: { base: TfvarsSide; head: TfvarsSide },
): Promise<NotFollowed[]> {
  const unit = file.endsWith('.hcl');
  if (!file.endsWith('.tf') && !unit) return [];
  const values = async (text: string | null, side: TfvarsSide) =>
    unit ? unitValues(file, text, sides.head) : valuesOf(file, text, sides.head, await folderSources(file, text, side));
  const [before, after] = [await values(texts.before, sides.base), await values(texts.after, sides.head)];
  for (const [side, own, other, text, atHead] of [
    [sides.head, after, before, texts.after, true],
    [sides.base, before, after, texts.before, false],
  ] as const) {
    if (text === null) continue;
    // A value naming a GPU at either side is the floor's scan's to judge, at its line.
    const named = new Set([...namingGpu(file, texts.before, before), ...namingGpu(file, texts.after, after)]);
    const changed = own.filter((v) => !named.has(v.key) && other.find((o) => o.key === v.key)?.text !== v.text);
    if (changed.length === 0) continue;
    const feeds = await feedsOf(file, text, side, unit);
    if (feeds === null) continue;
    // A unit's input is read where the variable it sets feeds only what is read; a module's values by their lines.
    const spans = unit ? [] : feeds.spansOf(file);
    const read = (v: Value) =>
      unit
        ? feeds.variableFed(v.subject.slice('var.'.length)) || !feeds.declares(v.subject.slice('var.'.length))
        : linesOf(v).every((line) => within(spans, line));
    // Each value not read by what it reaches, block by block: the first reaching a GPU nothing reads.
    const reached = changed.filter((v) => v.copies === true || !read(v)).map((v) => ({ v, gpu: feeds.reachedGpu(v.subject) }));
    const hit = reached.find((r) => r.gpu !== null);
    if (reached.length === 0) continue;
    if (hit === undefined || hit.gpu === null) return [];
    const { v: open, gpu } = hit;
    return [
      {
        file,
        line: atHead ? open.from : null,
        reason: 'gpu-reference',
        subject: open.subject,
        needs: `${gpu.path}:${gpu.line}`,
        inputs: [gpu.token],
      },
    ];
  }
  return [];
}

/** What the file's module feeds: its own folder's, or for a Terragrunt unit the module it names in this repository. */
async function feedsOf(file: string, text: string, side: TfvarsSide, unit: boolean): Promise<ModuleFeeds | null> {
  if (!unit) return moduleFeeds(dirOf(file), side, side.cache, { path: file, text });
  const dir = isLocalUnit(file, text, side.repositories) ? unitModule(file, text, side.repositories ?? []) : null;
  // The unit's module is itself a call (as unitSpans reads it).
  return dir === null ? null : moduleFeeds(dir, side, side.cache, undefined, 1);
}

/** A Terragrunt unit's inputs, each setting the variable of its name. */
function unitValues(file: string, text: string | null, side: TfvarsSide): Value[] {
  if (text === null || !isLocalUnit(file, text, side.repositories)) return [];
  const lines = text.split('\n');
  return unitInputs(text).map((e) => ({
    key: e.name,
    subject: `var.${e.name}`,
    ...e,
    text: lines
      .slice(e.from - 1, e.to)
      .map((l) => l.trim())
      .join('\n'),
  }));
}

/** The keys of the values on whose lines the scan finds a GPU name (a key such as `gpu_count` too). */
function namingGpu(file: string, text: string | null, values: readonly Value[]): string[] {
  if (text === null) return [];
  const lines = accountSignals(file, text).signals.map((s) => s.line);
  return values.filter((v) => lines.some((l) => v.from <= l && l <= v.to)).map((v) => v.key);
}

function linesOf(v: Value): number[] {
  return Array.from({ length: v.to - v.from + 1 }, (_, i) => v.from + i);
}

/** The sources of the module calls of the file's folder at one side, override files merged, the file as given. */
async function folderSources(file: string, text: string | null, side: TfvarsSide): Promise<ReadonlyMap<string, string>> {
  if (text === null) return new Map();
  const dir = dirOf(file);
  const files = [{ path: file, text }];
  for (const p of (await side.list(dir)).filter((x) => x !== file && dirOf(x) === dir && isTfFile(x))) {
    const t = await side.read(p);
    if (t !== null) files.push({ path: p, text: t });
  }
  return mergedModuleSources(files);
}

/** The values a file hands on, each with its text (trimmed lines) to compare across the sides. */
function valuesOf(file: string, text: string | null, side: TfvarsSide, sources: ReadonlyMap<string, string>): Value[] {
  if (text === null) return [];
  const lines = text.split('\n');
  const body = (from: number, to: number) =>
    lines
      .slice(from - 1, to)
      .map((l) => l.trim())
      .join('\n');
  const out: Value[] = [];
  for (const b of hclBlocks(text)) {
    const name = b.labels[0] ?? '';
    if (b.type === 'variable')
      out.push({ key: `var\u0000${name}`, subject: `var.${name}`, from: b.from, to: b.to, text: body(b.from, b.to) });
    else if (b.type === 'locals') {
      for (const e of localEntries(text, b))
        out.push({ key: `local\u0000${e.name}`, subject: `local.${e.name}`, ...e, text: body(e.from, e.to) });
    } else if (b.type === 'module') {
      // Only a module of this repository: a registry or remote one is noted argument by argument where it is called.
      // Its source as override files merge it: an override block giving arguments alone calls the primary's module.
      const source = sources.get(name);
      if (source === undefined || ownModuleDir(source, dirOf(file), side.repositories ?? []) === undefined) continue;
      for (const e of localEntries(text, b)) {
        if (META.has(e.name)) continue;
        const copies = e.name === 'count' || e.name === 'for_each' ? { copies: true as const } : {};
        out.push({
          key: `module\u0000${name}\u0000${e.name}`,
          subject: `module.${name}.${e.name}`,
          ...e,
          text: body(e.from, e.to),
          ...copies,
        });
      }
    }
  }
  return out;
}
