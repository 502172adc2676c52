import { describe, expect, it } from 'vitest';
import { match } from '../helpers/match.js';
import { z } from 'zod';
import { catalogSchema } from '../../src/workloads/catalog-schema.js';
import { policySchema } from '../../src/workloads/policy-schema.js';

/** The value at a path of keys and list indexes in a generated schema; undefined where one is missing. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined;
  return v;
}
const pattern = (value: unknown, ...path: string[]) => new RegExp(z.string().parse(at(value, ...path, 'pattern')));

/** Editors validate the files with a JSON Schema generated from the same zod schemas. */
describe('JSON Schema generation', () => {
  it('describes the catalog as users write it: strings for durations, closed objects', () => {
    const schema = z.toJSONSchema(catalogSchema, { io: 'input' });
    const item = at(schema, 'properties', 'workloads', 'items');
    const [job, inference] = [at(item, 'oneOf', 0), at(item, 'oneOf', 1)];
    expect(at(job, 'additionalProperties')).toBe(false);
    expect(at(job, 'properties', 'runtime')).toMatchObject({ type: 'string' });
    expect(pattern(job, 'properties', 'runtime').test('1h30m')).toBe(true);
    expect(pattern(job, 'properties', 'window', 'properties', 'deadline').test('09:00')).toBe(true);
    expect(at(job, 'required')).toEqual(match.arrayContaining(['name', 'type', 'gpusPerJob', 'runtime', 'window']));
    expect(at(job, 'required')).not.toContain('jobsPerDay');
    expect(at(inference, 'properties', 'type')).toMatchObject({ const: 'inference' });
  });

  it('describes the policy with every field optional', () => {
    const schema = z.toJSONSchema(policySchema, { io: 'input' });
    expect(at(schema, 'additionalProperties')).toBe(false);
    expect(at(schema, 'required') ?? []).toEqual([]);
    expect(at(schema, 'properties', 'mode', 'enum')).toEqual(['advise', 'enforce']);
  });
});
