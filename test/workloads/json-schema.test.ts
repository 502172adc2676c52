import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogSchema } from '../../src/workloads/catalog-schema.js';
import { policySchema } from '../../src/workloads/policy-schema.js';

/** Editors validate the files with a JSON Schema generated from the same zod schemas. */
describe('JSON Schema generation', () => {
  it('describes the catalog as users write it: strings for durations, closed objects', () => {
    const schema = z.toJSONSchema(catalogSchema, { io: 'input' }) as Record<string, any>;
    const item = schema.properties.workloads.items;
    const [job, inference] = item.oneOf;
    expect(job.additionalProperties).toBe(false);
    expect(job.properties.runtime).toMatchObject({ type: 'string' });
    expect(new RegExp(job.properties.runtime.pattern).test('1h30m')).toBe(true);
    expect(new RegExp(job.properties.window.properties.deadline.pattern).test('09:00')).toBe(true);
    expect(job.required).toEqual(expect.arrayContaining(['name', 'type', 'gpusPerJob', 'runtime', 'window']));
    expect(job.required).not.toContain('jobsPerDay');
    expect(inference.properties.type).toMatchObject({ const: 'inference' });
  });

  it('describes the policy with every field optional', () => {
    const schema = z.toJSONSchema(policySchema, { io: 'input' }) as Record<string, any>;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.mode.enum).toEqual(['advise', 'enforce']);
  });
});
