import type { NotFollowed } from '../domain/index.js';
import { accountSignals, resolvedSpans } from './kit/signal-scan/account.js';
import type { AccountedSignal } from './kit/signal-scan/account.js';
import { hclBlocks, localEntries } from './kit/signal-scan/hcl-module.js';
import type { HclBlock } from './kit/signal-scan/hcl-module.js';
import { dirOf } from './kit/paths.js';
import { computedNameNotes } from './terraform-computed-names.js';
import { isTfFile } from './terraform/tf-json.js';
import { changedBlocks, MAX_FILES, ownAddress } from './terraform-references.js';
import type { ReferenceSide } from './terraform-references.js';

/**
 * Terraform resources that take their machines from a variable or a local: an Auto Scaling group's
 * `override { instance_type = var.gpu_types[0] }`, a droplet's `size = local.gpu_size`, a pool of
 * a cloud no reader counts. The changed block names no GPU; the variable's default, its value in
 * the folder's tfvars, or the local does. A changed block no parser read that reads such a value is
 * not followed, so a size changed beside a machine type held elsewhere is never passed as no capacity.
 */

/** `var.name` and `local.name` in an expression. */
const VALUE_REF = /(?<![\w.-])(var|local)\.([A-Za-z_][\w-]*)/g;
/**
 * Resource types that make or size machines, by the words their providers use. Others (a DNS
 * record, a bucket, an IAM policy) may read a GPU machine type for a tag or a name and size nothing.
 */
const MACHINE_RESOURCE = /instance|autoscaling|node|pool|group|server|droplet|machine|cluster|fleet|compute|scale_set|launch|capacity|gpu/;
/** Kubernetes objects written in HCL: read (or shown to be workloads) by the manifest parsers. */
const KUBERNETES_RESOURCE = /^(?:kubernetes|kubectl|helm|k8s)_/;
/** Variable files Terraform loads by itself from the folder. */
const AUTO_TFVARS = /(?:^|\/)(?:terraform\.tfvars|[^/]+\.auto\.tfvars)$/;

/** One value a module defines: a variable (its block), a local (its entry), a tfvars entry. */
interface Definition {
  ref: string;
  path: string;
  from: number;
  to: number;
}

/**
 * The notes on a changed HCL Terraform file, at one side: for each changed machine resource no
 * parser read, the first variable or local it reads whose definition in the module (or value in
 * the folder's tfvars) names a GPU that nothing accounts for.
 */
export async function gpuValueReferenceNotes(
  file: string,
  text: string,
  other: string | null,
  side: ReferenceSide,
): Promise<NotFollowed[]> {
  if (!isTfFile(file) || file.endsWith('.json')) return [];
  const read = resolvedSpans(file, text, side.accounting.get(file) ?? { spans: [], anchors: [] });
  const changed = changedBlocks(text, other).filter(
    (b) =>
      b.type === 'resource' &&
      MACHINE_RESOURCE.test(b.labels[0] ?? '') &&
      !KUBERNETES_RESOURCE.test(b.labels[0] ?? '') &&
      // A pool a parser counted: its values were read with it.
      !read.some((s) => s.from <= b.to && b.from <= s.to),
  );
  if (changed.length === 0) return [];
  const computed = computedNameNotes(file, text, changed);
  const refs = new Map<string, HclBlock>();
  const lines = text.split('\n');
  for (const block of changed) {
    for (const m of lines
      .slice(block.from - 1, block.to)
      .join('\n')
      .matchAll(VALUE_REF)) {
      const ref = `${m[1] ?? ''}.${m[2] ?? ''}`;
      if (!refs.has(ref)) refs.set(ref, block);
    }
  }
  if (refs.size === 0) return computed;
  const dir = dirOf(file);
  const files = (await side.list(dir)).filter((p) => dirOf(p) === dir && ((isTfFile(p) && !p.endsWith('.json')) || AUTO_TFVARS.test(p)));
  const out: NotFollowed[] = [...computed];
  const seen = new Set<string>();
  for (const path of [file, ...files.filter((p) => p !== file)].slice(0, MAX_FILES)) {
    const body = path === file ? text : await side.reader.read(path);
    if (body === null) continue;
    // A GPU name in a value: a key alone (`gpu_enabled`) says nothing of the machines read.
    const signals = accountSignals(path, body, side.accounting.get(path)).signals.filter((s) => s.by === null && s.kind !== 'gpu-key');
    if (signals.length === 0) continue;
    for (const def of definitions(path, body)) {
      const from = refs.get(def.ref);
      if (from === undefined || seen.has(def.ref)) continue;
      const gpu = signals.find((s: AccountedSignal) => s.line >= def.from && s.line <= def.to);
      if (gpu === undefined) continue;
      seen.add(def.ref);
      out.push({
        file,
        line: from.from,
        reason: 'gpu-reference',
        subject: ownAddress(from) ?? from.type,
        needs: `${def.ref} (${path}:${def.from})`,
        inputs: [gpu.token],
      });
    }
  }
  return out;
}

/** The variables, locals and tfvars entries a file defines, each with its lines. */
function definitions(path: string, text: string): Definition[] {
  if (AUTO_TFVARS.test(path)) {
    const whole = { type: '', labels: [], from: 0, to: text.split('\n').length + 1 };
    return localEntries(text, whole).map((e) => ({ ref: `var.${e.name}`, path, from: e.from, to: e.to }));
  }
  const out: Definition[] = [];
  for (const block of hclBlocks(text)) {
    if (block.type === 'variable' && block.labels.length === 1) {
      // The body: the header holds only the variable's name.
      out.push({ ref: `var.${block.labels[0] ?? ''}`, path, from: block.from + 1, to: block.to });
    } else if (block.type === 'locals') {
      for (const e of localEntries(text, block)) out.push({ ref: `local.${e.name}`, path, from: e.from, to: e.to });
    }
  }
  return out;
}
