import type { Coordination } from './coordination.js';

/**
 * Webhook deliveries already handled, by GitHub's delivery id. GitHub redelivers when an answer is
 * slow or lost, and a redelivery may land on another replica; the same delivery must not post a
 * second check run or a second reply. The ids live in the App's coordination: this process's
 * memory, or Redis shared by every replica.
 */
export type DeliveryLog = Pick<Coordination, 'claimDelivery' | 'releaseDelivery' | 'finishDelivery'>;

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
    if (!(await log.claimDelivery(context.id))) {
      context.log.info({ delivery: context.id }, 'redelivered webhook skipped');
      return;
    }
    try {
      await handler(context);
    } catch (err) {
      await log.releaseDelivery(context.id);
      throw err;
    }
    await log.finishDelivery(context.id);
  };
}
