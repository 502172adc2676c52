import type { Logger } from './client.js';
import type { Coordination } from './coordination.js';
import { localCoordination } from './coordination.js';
import type { AppMetrics } from './metrics.js';
import { redisCoordination } from './redis-coordination.js';

/**
 * `REDIS_URL`, as Probot reads it for cluster-wide request throttling, also lets replicas share
 * delivery dedupe and a per-PR lock. Without it each replica coordinates through GitHub alone.
 */
export function coordinationFromEnv(env: NodeJS.ProcessEnv, log: Logger, metrics: AppMetrics): Coordination {
  const url = env.REDIS_URL?.trim();
  if (!url) return localCoordination();
  return redisCoordination(url, {
    log,
    available: (up) => metrics.redisUp.set(up ? 1 : 0),
    fellBack: (operation) => metrics.coordinationFallbacks.inc({ operation }),
  });
}
