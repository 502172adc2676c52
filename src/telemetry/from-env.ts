import type { Policy } from '../domain/index.js';
import { REVIEW_STEP_SECONDS, type TelemetryInput } from './collect.js';
import { fetchAllocation, openCostSettings } from './opencost/client.js';
import { prometheusConfig, type PrometheusEnv } from './prometheus/config.js';
import { PrometheusSource } from './prometheus-source.js';
import { TelemetryConfigError } from './errors.js';

/** Gives each review its telemetry; the policy may only pick a source by name. */
export type TelemetryProvider = (policy: Policy) => TelemetryInput | undefined;

type Env = PrometheusEnv & { OPENCOST_URL?: string | undefined };

/**
 * The operator's telemetry, from the environment only (docs/telemetry.md): endpoints and
 * credentials never come from a repository. Read once at start-up, so a bad setting fails early.
 */
export function telemetryFromEnv(env: Env = process.env as Env): TelemetryProvider {
  if (!env.PROMETHEUS_URL) return () => undefined;
  const source = new PrometheusSource(prometheusConfig(env), { minStepSeconds: REVIEW_STEP_SECONDS });
  const opencost = env.OPENCOST_URL ? openCostSettings(env.OPENCOST_URL) : undefined;
  return (policy) => {
    if (policy.telemetry !== 'default') {
      throw new TelemetryConfigError(
        `the policy asks for telemetry source "${policy.telemetry}", but the operator defines only "default"`,
        {
          source: 'policy',
          query: 'telemetry',
        },
      );
    }
    return {
      source,
      at: new Date(),
      ...(opencost === undefined ? {} : { allocation: (q) => fetchAllocation(opencost, q) }),
    };
  };
}
