import { MAX_GPU_COUNT, diagnostic } from '../domain/index.js';
import type { CapacityDecl, Diagnostic } from '../domain/index.js';
import type { ParseResult, UnresolvedDecl } from './parser.js';

/**
 * Every number a declaration carries into the comparison, by what it is called in messages.
 * Each parser reads its own format's numbers; this is the one place all of them pass, so an
 * overflowing product (nodes × GPUs per node × zones) or a count no parser thought to bound
 * is caught the same way whatever the format.
 */
function counts(decl: CapacityDecl): { what: string; value: number; line: number }[] {
  const out = [{ what: 'GPUs', value: decl.gpus, line: decl.line }];
  if (decl.gpuStep !== undefined) out.push({ what: 'GPUs per node step', value: decl.gpuStep, line: decl.line });
  if (decl.borrowingLimit !== undefined) out.push({ what: 'GPUs of borrowing limit', value: decl.borrowingLimit, line: decl.line });
  if (decl.lendingLimit !== undefined) out.push({ what: 'GPUs of lending limit', value: decl.lendingLimit, line: decl.line });
  for (const part of decl.parts) {
    out.push({ what: `${part.resource} GPUs (${part.label})`, value: part.gpus, line: part.line });
    if (part.borrowingLimit !== undefined)
      out.push({ what: `${part.resource} borrowing limit`, value: part.borrowingLimit, line: part.line });
    if (part.lendingLimit !== undefined) out.push({ what: `${part.resource} lending limit`, value: part.lendingLimit, line: part.line });
  }
  return out;
}

/** True for a number a real pool or quota can hold: finite, not negative, at most MAX_GPU_COUNT. */
export function isSaneCount(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= MAX_GPU_COUNT;
}

function describe(value: number): string {
  if (Number.isNaN(value)) return 'not a number';
  if (!Number.isFinite(value)) return 'infinite (the numbers overflow)';
  if (value < 0) return `${value}, negative`;
  const shown = value >= 1e12 ? value.toExponential(2) : value.toLocaleString('en-US');
  return `${shown}, more than ${MAX_GPU_COUNT.toLocaleString('en-US')}`;
}

/**
 * The result with every declaration whose numbers are not sane turned into an unresolved one,
 * and an error at its file and line saying which number: the change is then unreadable (no
 * confident verdict), never a verdict on "+Infinity GPUs" or on a negative pool.
 */
export function withSaneCounts<R extends ParseResult>(result: R): R {
  const decls: CapacityDecl[] = [];
  const unresolved: UnresolvedDecl[] = [...(result.unresolved ?? [])];
  const diagnostics: Diagnostic[] = [...result.diagnostics];
  let changed = false;
  for (const decl of result.decls) {
    const bad = counts(decl).find((c) => !isSaneCount(c.value));
    if (!bad) {
      decls.push(decl);
      continue;
    }
    changed = true;
    unresolved.push({ file: decl.file, line: bad.line, kind: decl.kind, name: decl.name });
    diagnostics.push(
      diagnostic(
        decl.file,
        bad.line,
        'error',
        `${decl.name}: ${bad.what} is ${describe(bad.value)}: not a real count, so its GPU capacity was not read`,
      ),
    );
  }
  return changed ? { ...result, decls, unresolved, diagnostics } : result;
}
