/**
 * Webhook deliveries already handled by this App instance, by GitHub's delivery id. GitHub
 * redelivers when an answer is slow or lost; the same delivery must not post a second check run
 * or a second reply. Bounded: the oldest ids are forgotten.
 */
export interface DeliveryLog {
  /** True the first time an id is seen; false for a redelivery of one handled or in progress. */
  claim(id: string): boolean;
  /** Forgets an id whose handling failed, so that GitHub's redelivery can retry it. */
  release(id: string): void;
}

const REMEMBERED = 10_000;

export function createDeliveryLog(limit = REMEMBERED): DeliveryLog {
  const seen = new Set<string>();
  return {
    claim(id) {
      if (seen.has(id)) return false;
      seen.add(id);
      if (seen.size > limit) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return true;
    },
    release(id) {
      seen.delete(id);
    },
  };
}

interface DeliveryContext {
  id: string;
  log: { info(obj: object, msg: string): void };
}

/** Runs `handler` once per delivery id; a failed run releases the id for a retry. */
export function oncePerDelivery<C extends DeliveryContext>(
  log: DeliveryLog,
  handler: (context: C) => Promise<void>,
): (context: C) => Promise<void> {
  return async (context) => {
    if (!log.claim(context.id)) {
      context.log.info({ delivery: context.id }, 'redelivered webhook skipped');
      return;
    }
    try {
      await handler(context);
    } catch (err) {
      log.release(context.id);
      throw err;
    }
  };
}
