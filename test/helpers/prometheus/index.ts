import { toOpenMetrics } from './openmetrics.js';
import { startPrometheus } from './server.js';
import type { RunningPrometheus } from './server.js';
import { defaultWindow, simulateCluster } from './simulator.js';
import type { SimWindow } from './simulator.js';

export * from './cluster.js';
export { startPrometheus } from './server.js';
export type { RunningPrometheus } from './server.js';
export type { SimWindow } from './simulator.js';

export interface SimulatedPrometheus extends RunningPrometheus {
  window: SimWindow;
}

/** A real Prometheus holding the simulated cluster's two days. */
export async function startSimulatedPrometheus(window = defaultWindow()): Promise<SimulatedPrometheus> {
  const running = await startPrometheus(toOpenMetrics(simulateCluster(window)));
  return { ...running, window };
}
