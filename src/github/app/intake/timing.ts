import { AsyncLocalStorage } from 'node:async_hooks';
import type { Probot } from 'probot';
import type { AppMetrics, WebhookStage } from '../metrics.js';

/** When the delivery being handled reached Probot's webhooks: its handler reads it to time `verify`. */
const arrival = new AsyncLocalStorage<number>();

/**
 * Times each delivery from the moment Probot's webhook middleware hands it over (after reading
 * its body) to the moment the answer is due. Probot offers no hook there, so its `verifyAndReceive`
 * is wrapped; the handlers run inside it, in its async context.
 */
export function timeWebhooks(app: Probot, metrics: AppMetrics): void {
  const webhooks = app.webhooks as Probot['webhooks'] | null;
  if (!webhooks) return;
  const receive = webhooks.verifyAndReceive.bind(webhooks);
  webhooks.verifyAndReceive = (event) => {
    const started = performance.now();
    return arrival.run(started, async () => {
      try {
        await receive(event);
      } finally {
        metrics.observeWebhookStage('webhook', performance.now() - started);
      }
    });
  };
}

/** Wraps a webhook handler: the `verify` stage up to its start, the `handler` stage its whole run. */
export function timedHandler<C>(metrics: AppMetrics, handler: (context: C) => Promise<void>): (context: C) => Promise<void> {
  return async (context) => {
    const started = performance.now();
    const arrived = arrival.getStore();
    if (arrived !== undefined) metrics.observeWebhookStage('verify', started - arrived);
    try {
      await handler(context);
    } finally {
      metrics.observeWebhookStage('handler', performance.now() - started);
    }
  };
}

/** Runs one stage of the handler and times it. */
export async function stage<T>(metrics: AppMetrics, name: WebhookStage, op: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await op();
  } finally {
    metrics.observeWebhookStage(name, performance.now() - started);
  }
}
