import { redactor } from '../util/redact.js';
import { visibleDeep } from '../domain/visible.js';
import type { Logger } from './api/index.js';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * The logger with every argument redacted (see Redactor) before pino sees it: log lines are an
 * output surface like comments and checks, and an error's message may echo a credential. Strings
 * from the PR in them (paths, names) have their invisible characters written out (visible.ts), so
 * a bidi control cannot reorder what an operator reads in a terminal.
 */
export function redactingLogger<L extends Logger>(log: L): L {
  return new Proxy(log, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && LEVELS.has(prop)) {
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => unknown).apply(
            target,
            args.map((a) => visibleDeep(redactor().redactDeep(a))),
          );
      }
      if (prop === 'child') {
        return (...args: unknown[]) => redactingLogger((value as (...a: unknown[]) => L).apply(target, args));
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/** The handler's context with its logger redacting; everything else is the context itself. */
export function withRedactedLog<C extends { log: Logger }>(handler: (context: C) => Promise<void>): (context: C) => Promise<void> {
  return (context) => {
    const log = redactingLogger(context.log);
    const safe = new Proxy(context, { get: (target, prop) => (prop === 'log' ? log : Reflect.get(target, prop, target)) });
    return handler(safe);
  };
}
