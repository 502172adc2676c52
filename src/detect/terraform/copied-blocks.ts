import { diagnostic } from '../../domain/index.js';
import type { Diagnostic } from '../../domain/index.js';
import { copiesOf, groupCopies } from './copies.js';
import type { CopyReading } from './copies.js';
import { Unk } from './expr-eval.js';
import type { PValue, Scope } from './expr-eval.js';
import type { Locator } from './locator.js';
import { asRecord } from './module-scope.js';
import type { PoolOutcome } from './pool-context.js';

type Reader = (file: string, body: Record<string, unknown>, loc: Locator, scope: Scope) => PoolOutcome;

// Resources whose readers read them whole (resources.ts counts the node pool resources' copies itself).
const COPIED_RESOURCES = ['google_container_cluster', 'awscc_sagemaker_cluster'];

interface CopiedBlock {
  /** The file body with only this block: what the reader is run on, once per copy. */
  body: Record<string, unknown>;
  raw: Record<string, unknown>;
  address: string;
  path: readonly (string | readonly string[])[];
}

/**
 * Runs a reader of module calls (the EKS, GKE and AKS modules) or of whole resources (a cluster's
 * autoprovisioning limits, a HyperPod cluster) over the file, each block that `count` or
 * `for_each` copies read once per copy: a module called for three clusters declares three times
 * its pools. Copies that name a pool alike are one pool of their summed GPUs (copies.ts). A block
 * whose copies cannot be told keeps what it declares as count unknown, unless it declares no GPUs
 * whatever its copies are.
 */
export function readWithCopies(read: Reader, file: string, body: Record<string, unknown>, loc: Locator, scope: Scope): PoolOutcome {
  const copied: CopiedBlock[] = [];
  const modules = { ...asRecord(body.module) };
  for (const [label, blocks] of Object.entries(modules)) {
    const raw = lastBlock(blocks);
    if (raw.count === undefined && raw.for_each === undefined) continue;
    copied.push({ body: { module: { [label]: blocks } }, raw, address: `module.${label}`, path: [['module', label]] });
    delete modules[label];
  }
  const resources = { ...asRecord(body.resource) };
  for (const type of COPIED_RESOURCES) {
    const ofType = { ...asRecord(resources[type]) };
    for (const [label, blocks] of Object.entries(ofType)) {
      const raw = lastBlock(blocks);
      if (raw.count === undefined && raw.for_each === undefined) continue;
      copied.push({
        body: { resource: { [type]: { [label]: blocks } } },
        raw,
        address: `${type}.${label}`,
        path: [['resource', type, label]],
      });
      delete ofType[label];
    }
    resources[type] = ofType;
  }
  if (copied.length === 0) return read(file, body, loc, scope);
  const out = read(file, { ...body, module: modules, resource: resources }, loc, scope);
  for (const block of copied) {
    const found = readCopies(read, file, block, loc, scope);
    out.decls.push(...found.decls);
    out.unresolved.push(...found.unresolved);
    out.diagnostics.push(...found.diagnostics);
  }
  return out;
}

function readCopies(read: Reader, file: string, block: CopiedBlock, loc: Locator, scope: Scope): PoolOutcome {
  const copies = copiesOf(block.raw, scope);
  if (copies === null || 'culprit' in copies) {
    const what = copies?.what ?? 'count';
    const unknown = new Map<string, PValue>([
      ['each', { key: new Unk('each.key'), value: new Unk('each.value') }],
      ['count', { index: new Unk('count.index') }],
    ]);
    const probe = read(file, block.body, loc, { ...scope, bound: new Map([...scope.bound, ...unknown]) });
    const all = [...probe.decls, ...probe.unresolved];
    if (all.length === 0) return { decls: [], unresolved: [], diagnostics: [] };
    const line = loc.path(loc.path(loc.file(), block.path) ?? loc.file(), [what])?.line ?? all[0]?.line ?? null;
    return {
      decls: [],
      unresolved: all.map((d) => ({ file: d.file, line: d.line, kind: d.kind, name: d.name })),
      diagnostics: [
        diagnostic(
          file,
          line,
          'warning',
          `${block.address}: ${what} comes from ${copies?.culprit ?? 'an expression'}: cannot tell how many copies there are of the GPU pools it declares`,
        ),
      ],
    };
  }
  const readings: CopyReading[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const { key, scope: inner } of copies) {
    const r = read(file, block.body, loc, inner);
    readings.push({ key, decls: r.decls, unresolved: r.unresolved });
    for (const d of r.diagnostics) {
      const k = `${d.line ?? ''}\u0000${d.message}`;
      if (!seen.has(k)) diagnostics.push(d);
      seen.add(k);
    }
  }
  return { ...groupCopies(readings), diagnostics };
}

function lastBlock(blocks: unknown): Record<string, unknown> {
  return Array.isArray(blocks) ? asRecord(blocks[blocks.length - 1]) : asRecord(blocks);
}
