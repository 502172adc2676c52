import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { jsonSchemas, schemaText } from '../../scripts/json-schemas.mjs';
import { parseCatalog } from '../../src/workloads/catalog.js';
import { catalogSchema } from '../../src/workloads/catalog-schema.js';
import { parsePolicy } from '../../src/workloads/policy.js';
import { policySchema } from '../../src/workloads/policy-schema.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CATALOG_SCHEMA = 'gpu-workloads.schema.json';
const POLICY_SCHEMA = 'gpu-justify.schema.json';
const DEMO_CATALOGS = ['fixtures/demo/base/gpu-workloads.yaml', 'fixtures/demo/head/gpu-workloads.yaml'];

const generated = jsonSchemas(z, { catalogSchema, policySchema });
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const committed = (file: string) => JSON.parse(read(`schemas/${file}`)) as Record<string, unknown>;

const ajv = new Ajv({ allErrors: true, strict: false });
const validateCatalog = ajv.compile(committed(CATALOG_SCHEMA));
const validatePolicy = ajv.compile(committed(POLICY_SCHEMA));

const demo = parse(read(DEMO_CATALOGS[0] as string)) as { workloads: Record<string, unknown>[] };
/** The demo catalog with its first workload changed. */
function demoWith(change: (w: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(demo);
  change(copy.workloads[0] as Record<string, unknown>);
  return copy;
}

/** The pages users copy examples from: the README and the reference pages in docs/. */
const DOC_PAGES = ['README.md', 'docs/catalog.md', 'docs/policy.md'];

/** ```yaml blocks of the documentation whose first key says which file they show. */
function docBlocks(firstKey: RegExp): { page: string; text: string }[] {
  return DOC_PAGES.flatMap((page) =>
    [...read(page).matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => ({ page, text: m[1] as string }))
      .filter(({ text }) => firstKey.test(text.replace(/^#.*\n/gm, ''))),
  );
}

describe('schemas/', () => {
  it.each([CATALOG_SCHEMA, POLICY_SCHEMA])('%s is what the zod schemas generate (run `npm run schemas`)', (file) => {
    expect(read(`schemas/${file}`)).toBe(schemaText(generated[file as keyof typeof generated]));
  });

  it('the catalog schema accepts the demo catalogs', () => {
    for (const file of DEMO_CATALOGS) {
      expect(validateCatalog(parse(read(file))), `${file}: ${ajv.errorsText(validateCatalog.errors)}`).toBe(true);
    }
  });

  it.each([
    ['an unknown key', demoWith((w) => (w.gpuPerJob = 2)), /additional properties/],
    ['a GPU count as text', demoWith((w) => (w.gpusPerJob = 'two')), /gpusPerJob must be integer/],
    ['zero GPUs', demoWith((w) => (w.gpusPerJob = 0)), /gpusPerJob must be >= 1/],
    ['a bad duration', demoWith((w) => (w.runtime = '2 hours')), /runtime must match pattern/],
    ['a bad time of day', demoWith((w) => ((w.window as Record<string, unknown>).deadline = '25:00')), /deadline must match pattern/],
    ['no window', demoWith((w) => delete w.window), /must have required property 'window'/],
    ['an unknown type', demoWith((w) => (w.type = 'cron')), /type must be equal to one of the allowed values/],
    ['no workloads list', { jobs: [] }, /must have required property 'workloads'/],
  ])('the catalog schema rejects %s, as gpu-justify does', (_what, catalog, message) => {
    expect(validateCatalog(catalog)).toBe(false);
    expect(ajv.errorsText(validateCatalog.errors)).toMatch(message);
    // The editor and the tool agree: the catalog parser reports an error for the same file.
    const parsed = parseCatalog('gpu-workloads.yaml', JSON.stringify(catalog));
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).not.toEqual([]);
  });

  it('the policy schema accepts the demo policy and rejects a bad one', () => {
    const policy = parse(read('fixtures/demo/base/.github/gpu-justify.yml')) as Record<string, unknown>;
    expect(validatePolicy(policy), ajv.errorsText(validatePolicy.errors)).toBe(true);
    for (const bad of [{ mode: 'strict' }, { headroom: 1.5 }, { overrides: { minPermission: 'read' } }, { windows: '14d' }]) {
      expect(validatePolicy(bad), JSON.stringify(bad)).toBe(false);
      expect(parsePolicy('.github/gpu-justify.yml', JSON.stringify(bad)).diagnostics).not.toEqual([]);
    }
  });

  it.each(DOC_PAGES)('the catalog and policy examples of %s are valid', (page) => {
    const catalogs = docBlocks(/^workloads:/).filter((b) => b.page === page);
    const policies = docBlocks(/^mode:/).filter((b) => b.page === page);
    expect(catalogs.length + policies.length).toBeGreaterThan(0);
    for (const { text } of catalogs) {
      expect(validateCatalog(parse(text)), ajv.errorsText(validateCatalog.errors)).toBe(true);
      expect(parseCatalog(page, text).diagnostics).toEqual([]);
    }
    for (const { text } of policies) {
      expect(validatePolicy(parse(text)), ajv.errorsText(validatePolicy.errors)).toBe(true);
      expect(parsePolicy(page, text).diagnostics).toEqual([]);
    }
  });

  it.each(DEMO_CATALOGS)('%s names the catalog schema for yaml-language-server', (file) => {
    const modeline = /^# yaml-language-server: \$schema=(\S+)$/m.exec(read(file));
    expect(modeline).not.toBeNull();
    expect(resolve(dirname(join(ROOT, file)), modeline?.[1] ?? '')).toBe(join(ROOT, 'schemas', CATALOG_SCHEMA));
  });
});
