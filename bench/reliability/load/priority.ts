import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Lowers the priority of every thread of this process (the sender, the fake GitHub, the proxy
 * choice: all on the bench's own threads) to `nice`, after the App's processes and Redis have
 * been started at the priority the bench was given. On a machine shared with other work, the
 * sender and the fake GitHub then wait for a CPU behind the App and its Redis rather than beside
 * them, so the answer times measure the App, not the bench that drives it. Linux sets a priority
 * per thread (setpriority on a thread id), so each thread listed in /proc/self/task is lowered;
 * threads started later inherit it. Returns the threads lowered (0 off Linux).
 */
export function lowerOwnPriority(nice: number): number {
  let lowered = 0;
  for (const tid of threads()) {
    try {
      setPriority(Number(tid), nice);
      lowered++;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return lowered;
}

/** This process's thread ids; none off Linux. */
function threads(): string[] {
  try {
    return readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}

/**
 * The bench's own event loop: how late it ran the sender's and the fake GitHub's callbacks. A
 * sender whose loop is held sees every answer late, however fast the App answered; the report
 * prints it beside the answer times as the sender saw them.
 */
export function watchOwnLoop(): () => { p99Ms: number; maxMs: number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return () => {
    histogram.disable();
    return { p99Ms: Math.round(histogram.percentile(99) / 1e6), maxMs: Math.round(histogram.max / 1e6) };
  };
}
