import { parentPort, workerData } from 'node:worker_threads';

/**
 * Asks the App's `/ping` every `everyMs` from a thread of its own, so the round trips measured are
 * the App's answer, not the wait of the bench's own thread (which serves the fake GitHub). Posts
 * `ready` after its first answer, and `[sentAtMs, roundTripMs]` pairs when told to stop.
 */
const { url, everyMs } = workerData as { url: string; everyMs: number };
const samples: [number, number][] = [];
let stopped = false;
parentPort?.on('message', () => {
  stopped = true;
});

while (!stopped) {
  const sent = performance.timeOrigin + performance.now();
  const started = performance.now();
  try {
    const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(120_000) });
    await res.text();
    samples.push([sent, performance.now() - started]);
    if (samples.length === 1) parentPort?.postMessage('ready');
  } catch {
    samples.push([sent, Number.POSITIVE_INFINITY]);
  }
  await new Promise((r) => setTimeout(r, everyMs));
}
parentPort?.postMessage({ samples });
