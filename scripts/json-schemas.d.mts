import type { z } from 'zod';

export function jsonSchemas(
  zod: typeof z,
  schemas: { catalogSchema: z.ZodType; policySchema: z.ZodType },
): Record<'gpu-workloads.schema.json' | 'gpu-justify.schema.json', Record<string, unknown>>;

export function schemaText(schema: Record<string, unknown>): string;
