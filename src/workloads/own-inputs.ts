import { parseAllDocumentsLinear } from '../util/yaml-linear.js';
import type { FileCoverage, TreeReader, Workload } from '../domain/index.js';
import { readOrWhy } from '../domain/index.js';
import { catalogShellSchema } from './catalog-schema.js';
import { policySchema } from './policy-schema.js';

/**
 * The review's own inputs — the catalog, the policy and the load tests the catalog names — name GPUs
 * on every line (`gpusPerJob`, prices per model) and declare no capacity: the review reads them
 * itself. The GPU floor of detect/ does not know them, so it calls them not followed; here they are
 * read, but only when each side of the file is wholly such an input: one YAML document of the
 * catalog's or the policy's keys, or JSON that holds no Kubernetes object. Anything else in the
 * file (a second document, an object an applier would apply) keeps it not followed.
 */
export interface OwnInputs {
  catalog: string;
  policies: readonly string[];
  /** Load-test files the catalog names, at either side. */
  loadTests: readonly string[];
}

type Shape = 'catalog' | 'policy' | 'load-test';

export async function withOwnInputs(
  coverage: readonly FileCoverage[],
  inputs: OwnInputs,
  sides: { base: TreeReader; head: TreeReader },
): Promise<FileCoverage[]> {
  const shapes = new Map<string, Shape>([
    ...inputs.loadTests.map((p): [string, Shape] => [p, 'load-test']),
    ...inputs.policies.map((p): [string, Shape] => [p, 'policy']),
    [inputs.catalog, 'catalog'],
  ]);
  return Promise.all(
    coverage.map(async (c) => {
      const shape = shapes.get(c.file);
      if (shape === undefined || c.state !== 'not-followed') return c;
      // Only names the floor could not place: a quota the file declares unreadably stays not followed.
      if (!(c.notFollowed ?? []).every((n) => n.reason === 'unaccounted-signal')) return c;
      const texts = await Promise.all([readOrWhy(sides.base, c.file), readOrWhy(sides.head, c.file)]);
      // A side that is no file (a link leading out) stays not followed, as detection named it.
      const whole = texts.every((t) => t === null || (typeof t === 'string' && hasShape(shape, t)));
      return whole ? { file: c.file, state: 'read', objects: 0 } : c;
    }),
  );
}

/** Load-test paths a catalog names, for its workloads and their alternatives; none when it does not parse. */
export function namedLoadTests(workloads: readonly Workload[]): string[] {
  return workloads
    .flatMap((w) => (w.type === 'inference' ? [w.loadTest, ...w.alternatives.map((a) => a.loadTest)] : []))
    .filter((p): p is string => p !== undefined);
}

const CATALOG_KEYS = new Set(Object.keys(catalogShellSchema.shape));
const POLICY_KEYS = new Set(Object.keys(policySchema.shape));

function hasShape(shape: Shape, text: string): boolean {
  if (shape === 'load-test') return isLoadTest(text);
  const docs = parseAllDocumentsLinear(text).filter((d) => d.contents !== null);
  if (docs.length !== 1) return docs.length === 0;
  const doc = docs[0];
  if (doc === undefined || doc.errors.length > 0) return false;
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = shape === 'catalog' ? CATALOG_KEYS : POLICY_KEYS;
  return Object.keys(value).every((k) => keys.has(k));
}

/** JSON (or JSON lines) with no Kubernetes object at its top: what kubectl would apply, it is not. */
function isLoadTest(text: string): boolean {
  const values: unknown[] = [];
  try {
    values.push(JSON.parse(text));
  } catch {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        values.push(JSON.parse(line));
      } catch {
        return false;
      }
    }
  }
  return !values.some(namesKind);
}

function namesKind(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesKind);
  return typeof value === 'object' && value !== null && 'apiVersion' in value && 'kind' in value;
}
