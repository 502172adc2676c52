import { isMap, isScalar, isSeq } from 'yaml';
import { parseAllDocumentsLinear } from '../../../util/yaml-linear.js';
import type { Node } from 'yaml';

/**
 * Files no tool applies, whatever GPU names they hold, judged by what they are and never by
 * their path alone (a path is the pull request's to choose):
 * - `helm-unittest`: a helm-unittest suite (every YAML document a mapping of the suite's own keys
 *   only, whose `tests` are items that each carry `asserts`). The plugin renders the chart's
 *   templates with the values a test sets and checks the result; it creates nothing, and no
 *   Kubernetes applier takes a document without `apiVersion` and `kind`.
 * - `json-schema`: a `*.schema.json` (Helm's `values.schema.json`) holding a JSON Schema. Helm
 *   validates values with it and applies none of its `default`s; `enum` lists name what is
 *   allowed, not what exists.
 * - `helm-repo-index`: a Helm chart repository's `index.yaml` (Helm's `IndexFile`: `apiVersion`,
 *   `entries` and the index's own keys only, each entry a list of chart versions that name a chart
 *   and its `version`). `helm repo` reads it to find charts; it lists chart names and descriptions
 *   (`karpenter-gpu-nodepool`) and installs nothing.
 * A file that only looks like one of these (a key of its own beside them, a `kind`, a test with
 * no assertions, text that does not parse) is judged as any other file.
 */
export type NotApplied = 'helm-unittest' | 'json-schema' | 'helm-repo-index';

/** The suite's keys (helm-unittest DOCUMENT.md, "Test Suite"). */
const SUITE_KEYS = new Set([
  'suite',
  'values',
  'set',
  'templates',
  'excludeTemplates',
  'release',
  'capabilities',
  'chart',
  'kubernetesProvider',
  'postRenderer',
  'skip',
  'snapshotId',
  'tests',
]);
/** Keys of a JSON object that an applier takes: a Kubernetes object, an ARM template, Terraform JSON. */
const APPLIED_JSON_KEYS = ['kind', 'apiVersion', 'resources', 'resource', 'module', 'data', 'variable', 'locals', 'output'];
// Only a text with both words is parsed: a file of another kind costs one regular expression.
const MAYBE_SUITE = /^tests[ \t]*:/m;
const MAYBE_ASSERTS = /\basserts[ \t]*:/;
/** The keys of Helm's `IndexFile` (helm.sh/helm/v3/pkg/repo). */
const INDEX_KEYS = new Set(['apiVersion', 'entries', 'generated', 'serverInfo', 'publicKeys', 'annotations']);
const MAYBE_INDEX = /^entries[ \t]*:/m;

export function notApplied(path: string, text: string): NotApplied | null {
  if (/\.schema\.json$/i.test(path)) return isJsonSchema(text) ? 'json-schema' : null;
  if (/\.ya?ml$/i.test(path) && MAYBE_SUITE.test(text) && MAYBE_ASSERTS.test(text)) return isSuite(text) ? 'helm-unittest' : null;
  if (/\.ya?ml$/i.test(path) && MAYBE_INDEX.test(text)) return isRepoIndex(text) ? 'helm-repo-index' : null;
  return null;
}

function isJsonSchema(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (APPLIED_JSON_KEYS.some((k) => keys.includes(k))) return false;
  const schema = (value as Record<string, unknown>).$schema;
  return (typeof schema === 'string' && /json-schema\.org/.test(schema)) || keys.includes('properties');
}

function isSuite(text: string): boolean {
  const docs = parseAllDocumentsLinear(text);
  if (!Array.isArray(docs) || docs.length === 0) return false;
  let suites = 0;
  for (const doc of docs) {
    if (doc.errors.length > 0) return false;
    // An empty document (a trailing `---`) holds nothing to apply.
    if (doc.contents === null) continue;
    if (!isSuiteMap(doc.contents)) return false;
    suites++;
  }
  return suites > 0;
}

function isSuiteMap(node: Node): boolean {
  if (!isMap(node)) return false;
  let tests: unknown = null;
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? pair.key.value : null;
    if (typeof key !== 'string' || !SUITE_KEYS.has(key)) return false;
    if (key === 'tests') tests = pair.value;
  }
  if (!isSeq(tests) || tests.items.length === 0) return false;
  return tests.items.every((t) => isMap(t) && t.items.some((p) => isScalar(p.key) && p.key.value === 'asserts' && isSeq(p.value)));
}

function isRepoIndex(text: string): boolean {
  const docs = parseAllDocumentsLinear(text);
  if (!Array.isArray(docs) || docs.length !== 1) return false;
  const [doc] = docs;
  if (doc === undefined || doc.errors.length > 0 || !isMap(doc.contents)) return false;
  let entries: unknown = null;
  let api = false;
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? pair.key.value : null;
    if (typeof key !== 'string' || !INDEX_KEYS.has(key)) return false;
    if (key === 'entries') entries = pair.value;
    if (key === 'apiVersion') api = true;
  }
  if (!api || !isMap(entries) || entries.items.length === 0) return false;
  // Every entry a list of chart versions, each naming its chart and version.
  return entries.items.every(
    (e) =>
      isSeq(e.value) &&
      e.value.items.every((v) => isMap(v) && ['name', 'version'].every((k) => v.items.some((p) => isScalar(p.key) && p.key.value === k))),
  );
}
