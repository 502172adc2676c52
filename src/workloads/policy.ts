import type { z } from 'zod';
import { diagnostic } from '../domain/diagnostic.js';
import type { Diagnostic } from '../domain/diagnostic.js';
import { DEFAULT_POLICY } from '../domain/policy.js';
import type { Policy } from '../domain/policy.js';
import { overridesSchema, policySchema } from './policy-schema.js';
import { protoKeyPaths } from './unsafe-keys.js';
import { describeValue, friendlyErrors, issuesToDiagnostics, protoKeyDiagnostics } from './zod-diagnostics.js';
import { loadYaml } from './yaml-source.js';
import type { FieldPath } from './yaml-source.js';

export interface PolicyResult {
  policy: Policy;
  diagnostics: Diagnostic[];
}

const OPTIONS = { error: friendlyErrors, reportInput: true } as const;

/** Reads `.github/gpu-justify.yml`. An empty file is all defaults. Never throws. */
export function parsePolicy(file: string, text: string): PolicyResult {
  const source = loadYaml(file, text);
  if (source.kind !== 'value') {
    return { policy: defaults(), diagnostics: source.diagnostics };
  }
  const result = policyFromObject(file, source.value, source.lineOf);
  return { policy: result.policy, diagnostics: [...source.diagnostics, ...result.diagnostics] };
}

/**
 * Validates a policy already parsed (after `_extends` merging, say). Every problem is reported;
 * each bad field falls back to its default so the rest of the policy still applies.
 */
export function policyFromObject(
  file: string,
  value: unknown,
  lineOf: (path: (string | number)[]) => number | null = () => null,
): PolicyResult {
  const locate = (path: FieldPath): number | null => lineOf(path.filter((s): s is string | number => typeof s !== 'symbol'));
  if (value === null || value === undefined) return { policy: defaults(), diagnostics: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      policy: defaults(),
      diagnostics: [diagnostic(file, locate([]), 'error', `the policy must be a mapping, got ${describeValue(value)}`)],
    };
  }
  const parsed = policySchema.safeParse(value, OPTIONS);
  const diagnostics = [
    ...protoKeyDiagnostics(file, protoKeyPaths(value), locate),
    ...(parsed.success ? [] : issuesToDiagnostics(file, parsed.error.issues, locate, [], { schema: policySchema, value })),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const policy = parsed.success ? withDefaults(parsed.data) : salvage(value as Record<string, unknown>);
  return { policy, diagnostics };
}

type ParsedPolicy = ReturnType<typeof policySchema.parse>;

function defaults(): Policy {
  return withDefaults({});
}

function withDefaults(p: ParsedPolicy): Policy {
  return {
    mode: p.mode ?? DEFAULT_POLICY.mode,
    catalog: p.catalog ?? DEFAULT_POLICY.catalog,
    window: p.window ?? DEFAULT_POLICY.window,
    headroom: p.headroom ?? DEFAULT_POLICY.headroom,
    idleBelow: p.idleBelow ?? DEFAULT_POLICY.idleBelow,
    overrides: {
      minPermission: p.overrides?.minPermission ?? DEFAULT_POLICY.overrides.minPermission,
      teams: p.overrides?.teams ?? [...DEFAULT_POLICY.overrides.teams],
      allowAuthor: p.overrides?.allowAuthor ?? DEFAULT_POLICY.overrides.allowAuthor,
      catalogOwners: p.overrides?.catalogOwners ?? DEFAULT_POLICY.overrides.catalogOwners,
    },
    prices: p.prices ?? { ...DEFAULT_POLICY.prices },
    telemetry: p.telemetry ?? DEFAULT_POLICY.telemetry,
    comment: p.comment ?? DEFAULT_POLICY.comment,
  };
}

/** Keeps each field (each override, each price) that is valid on its own; the rest default. */
function salvage(raw: Record<string, unknown>): Policy {
  const shape = policySchema.shape;
  const rawOverrides = raw.overrides;
  let overrides: ParsedPolicy['overrides'];
  if (rawOverrides !== null && typeof rawOverrides === 'object' && !Array.isArray(rawOverrides)) {
    const o = rawOverrides as Record<string, unknown>;
    const sub = overridesSchema.shape;
    overrides = {
      minPermission: keep(sub.minPermission, o.minPermission),
      teams: keep(sub.teams, o.teams),
      allowAuthor: keep(sub.allowAuthor, o.allowAuthor),
      catalogOwners: keep(sub.catalogOwners, o.catalogOwners),
    };
  }
  let prices: Record<string, number> | undefined;
  const rawPrices = raw.prices;
  if (rawPrices !== null && typeof rawPrices === 'object' && !Array.isArray(rawPrices)) {
    prices = {};
    for (const [model, price] of Object.entries(rawPrices as Record<string, unknown>)) {
      const result = shape.prices.safeParse({ [model]: price });
      if (result.success && result.data) Object.assign(prices, result.data);
    }
  }
  return withDefaults({
    mode: keep(shape.mode, raw.mode),
    catalog: keep(shape.catalog, raw.catalog),
    window: keep(shape.window, raw.window),
    headroom: keep(shape.headroom, raw.headroom),
    idleBelow: keep(shape.idleBelow, raw.idleBelow),
    overrides,
    prices,
    telemetry: keep(shape.telemetry, raw.telemetry),
    comment: keep(shape.comment, raw.comment),
  });
}

function keep<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}
