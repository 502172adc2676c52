import { detectFile } from './detect-file.js';
import { appliedFiles, empty, isFlux, kustomizationsNear, newBudget } from './flux-variables.js';
import type { FluxVariablesIo } from './flux-variables.js';
import { isObject, jsonText } from './kustomize/patch-apply.js';
import { loadObjects } from './kustomize/patches.js';
import type { CapacityParser, ParseResult } from './parser.js';

/**
 * What a Flux `Kustomization` applies: its `path` and its `components`. A pull request that changes
 * them (a Component added by a profile's patch, `path` pointed at another folder) applies other
 * files, none of which it touches: a time-slicing config turned on for every cluster of a profile.
 * The files applied at one side only are read, as they stand (their `${var}` references are those
 * of the cluster, unknown here, so a GPU field set by one is not followed), and counted at that side.
 */
export async function followFluxComponents(
  changed: readonly string[],
  io: FluxVariablesIo,
  parsers: readonly CapacityParser[],
): Promise<{ base: ParseResult; head: ParseResult }> {
  const out = { base: empty(), head: empty() };
  const budget = newBudget();
  const done = new Set<string>();
  for (const path of changed.filter((p) => /\.ya?ml$/i.test(p))) {
    const names = new Set<string>();
    for (const reader of [io.base, io.head]) {
      const text = await reader.read(path);
      for (const obj of text === null ? [] : loadObjects(text).objects)
        if (isFlux(obj) && isObject(obj.metadata)) names.add(jsonText(obj.metadata.name));
    }
    if (names.size === 0) continue;
    const applied = { base: new Set<string>(), head: new Set<string>() };
    for (const side of ['base', 'head'] as const) {
      const reader = io[side];
      for (const k of await kustomizationsNear(path, io, budget, reader))
        if (names.has(k.name)) for (const f of await appliedFiles(k, io, budget, reader)) applied[side].add(f);
    }
    for (const [side, other] of [
      ['head', 'base'],
      ['base', 'head'],
    ] as const) {
      for (const file of applied[side]) {
        // A changed file is read at each side as it is; one counted for another changed file once.
        if (applied[other].has(file) || changed.includes(file) || done.has(`${side} ${file}`)) continue;
        done.add(`${side} ${file}`);
        const text = await io[side].read(file);
        if (text === null) continue;
        const r = detectFile(file, text, parsers);
        out[side].decls.push(...r.decls);
        out[side].unresolved?.push(...(r.unresolved ?? []));
        if (side === 'head') out.head.diagnostics.push(...r.diagnostics);
      }
    }
  }
  return out;
}
