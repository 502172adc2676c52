import type { ChangeSet, FileCoverage } from './domain/index.js';
import { isCatalogOnly } from './workloads/catalog.js';

/**
 * The workload catalog states demand, and the review reads it whole: the GPU names in it (a
 * `gpusPerJob`) are no capacity left unaccounted for. Its file is read, not "not followed", when
 * each side is a catalog and nothing else and the floor's unaccounted names are all it was held on;
 * a catalog that carries anything more stays not followed. What the PR declares in it is judged as
 * demand (analysis/catalog-demand.ts).
 */
export async function withCatalogRead(coverage: readonly FileCoverage[], catalogFile: string, changes: ChangeSet): Promise<FileCoverage[]> {
  const entry = coverage.find((c) => c.file === catalogFile);
  if (entry?.state !== 'not-followed' || !(entry.notFollowed ?? []).every((n) => n.reason === 'unaccounted-signal')) return [...coverage];
  const sides = await Promise.all([changes.base.read(catalogFile), changes.head.read(catalogFile)]);
  if (!sides.every((text) => text === null || isCatalogOnly(catalogFile, text))) return [...coverage];
  return coverage.map((c) => (c === entry ? { file: c.file, state: 'read', objects: 0 } : c));
}
