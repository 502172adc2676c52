/**
 * Records fixtures/demo/snapshot.json: the demo cluster (scripts/demo/cluster.ts) is backfilled
 * into a real Prometheus on loopback, and `gpu-justify snapshot` asks it every question the demo
 * review asks. Run after changing a query: `npm run demo:snapshot`.
 */
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { toOpenMetrics } from '../../test/helpers/prometheus/openmetrics.js';
import { startPrometheus } from '../../test/helpers/prometheus/server.js';
import { DAY, demoCluster } from './cluster.js';

/** The demo's "now": midnight after two simulated days. */
export const DEMO_AT = '2026-11-29T00:00:00Z';

const demo = fileURLToPath(new URL('../../fixtures/demo/', import.meta.url));
const end = Date.parse(DEMO_AT) / 1000;
const prometheus = await startPrometheus(toOpenMetrics(demoCluster(end - 2 * DAY, end)));
try {
  const code = await main([
    'snapshot',
    '--catalog',
    `${demo}base/gpu-workloads.yaml`,
    '--prometheus',
    prometheus.url,
    '--base',
    `${demo}base`,
    '--head',
    `${demo}head`,
    '--at',
    DEMO_AT,
    '--window',
    '2d',
    '--step',
    '300',
    '--out',
    `${demo}snapshot.json`,
  ]);
  process.exitCode = code;
} finally {
  await prometheus.stop();
}
