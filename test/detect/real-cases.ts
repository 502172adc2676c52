import { isDeepStrictEqual } from 'node:util';
import type { DetectedChanges } from '../../src/detect/detect-changes.js';
import { detectPr, edited, loadReal } from './real-fixtures.js';
import { MACHINE_SCALER_CASES } from './real-cases-machine-scalers.js';
import { DECKHOUSE_CLASS_CASES } from './real-cases-deckhouse-classes.js';
import { GARDENER_WORKER_CASES } from './real-cases-gardener-workers.js';
import { GITOPS_CLUSTER_CASES } from './real-cases-gitops-clusters.js';
import { INSTANCE_GROUP_CASES } from './real-cases-instance-groups.js';
import { KUEUE_COHORT_CASES } from './real-cases-kueue-cohorts.js';
import { MODULE_CASES } from './real-cases-modules.js';
import { NEOCLOUD_POOL_CASES } from './real-cases-neocloud-pools.js';
import { NODE_POOL_API_CASES } from './real-cases-node-pool-apis.js';
import { PROGRAM_CASES } from './real-cases-programs.js';
import { RANCHER_MACHINE_POOL_CASES } from './real-cases-rancher-machine-pools.js';
import { REPO_CASES } from './real-cases-repos.js';
import { SCRIPT_CASES } from './real-cases-scripts.js';
import { TERRAFORM_CASES } from './real-cases-terraform.js';
import { YAML_CASES } from './real-cases-yaml.js';
import { VENDOR_BLUEPRINT_CASES } from './real-cases-vendor-blueprints.js';
import { VENDOR_SAMPLE_IAC_CASES } from './real-cases-vendor-samples-iac.js';
import type { RealCase, Row } from './real-case.js';

export type { RealCase } from './real-case.js';

/**
 * - `right`: exactly the expected changes, nothing left unfollowed (for a negative control: no change).
 * - `not-followed`: a changed file is not followed, which the review names with its reason (its
 *   verdict is insufficient-evidence), or a partial count is reported with a warning that says so.
 * - `silent-miss`: a GPU change was expected, and the review would pass with nothing reported or flagged.
 * - `wrong`: a change is reported with other numbers than expected, or where none was.
 */
export type Outcome = 'right' | 'not-followed' | 'silent-miss' | 'wrong';

function classify(c: RealCase, r: DetectedChanges): Outcome {
  const rows: Row[] = r.changes.map((x) => [x.kind, x.name, x.gpusBefore, x.gpusAfter]);
  const expected = c.expect === 'not-followed' ? [] : c.expect;
  const unfollowed = r.coverage.some((f) => f.state === 'not-followed');
  const warned = r.diagnostics.some((d) => d.severity !== 'info');
  // A number reported that is not the expected one is wrong, whatever else the review says.
  if (rows.some((row) => !expected.some((e) => isDeepStrictEqual(e, row)))) return 'wrong';
  if (unfollowed) return 'not-followed';
  if (c.expect === 'not-followed') return 'silent-miss';
  if (rows.length !== expected.length) return 'silent-miss';
  if (c.partial) return warned ? 'not-followed' : 'wrong';
  return 'right';
}

/** A negative control (no change expected) that ended anything but right: the review would hold up a PR that grows nothing. */
export function falseAlarm(c: RealCase, outcome: Outcome): boolean {
  return c.expect !== 'not-followed' && c.expect.length === 0 && outcome !== 'right';
}

/**
 * The outcome a case is written for: `right`, or `not-followed` where nothing better is possible
 * (or where the review does not read the case yet, `today`).
 */
export function wanted(c: RealCase): Outcome {
  return c.today?.outcome ?? (c.expect === 'not-followed' || c.partial ? 'not-followed' : 'right');
}

export async function runCase(c: RealCase): Promise<{ result: DetectedChanges; outcome: Outcome }> {
  const base = caseTree(c);
  const result = await detectPr(base, edited(base, c.edits), true, c.repositories);
  return { result, outcome: classify(c, result) };
}

/** The base tree a case is read on: its fixture, made the repository's root where the case says so. */
export function caseTree(c: RealCase): Record<string, string> {
  return c.root ? rooted(loadReal(c.target), c.target) : { ...loadReal(c.target) };
}

/** The tree with `target/` taken off each path: the fixture directory as the repository's root. */
function rooted(tree: Readonly<Record<string, string>>, target: string): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).map(([p, text]) => [p.slice(target.length + 1), text]));
}

/** In the order the table of `npm run detect:corpus -- --cases` lists them. */
export const REAL_CASES: readonly RealCase[] = [
  ...TERRAFORM_CASES,
  ...YAML_CASES,
  ...REPO_CASES,
  ...MODULE_CASES,
  ...MACHINE_SCALER_CASES,
  ...PROGRAM_CASES,
  ...SCRIPT_CASES,
  ...NODE_POOL_API_CASES,
  ...INSTANCE_GROUP_CASES,
  ...NEOCLOUD_POOL_CASES,
  ...KUEUE_COHORT_CASES,
  ...DECKHOUSE_CLASS_CASES,
  ...GARDENER_WORKER_CASES,
  ...GITOPS_CLUSTER_CASES,
  ...RANCHER_MACHINE_POOL_CASES,
  ...VENDOR_BLUEPRINT_CASES,
  ...VENDOR_SAMPLE_IAC_CASES,
];
