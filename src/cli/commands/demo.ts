import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReviewResult } from '../../domain/index.js';
import { renderComment } from '../../report/index.js';
import { runReview } from '../../review/index.js';
import { parseFlags } from '../args.js';
import type { Output } from '../output.js';
import { loadPolicy } from '../policy-from-tree.js';
import { telemetryFromFlags } from '../telemetry-flags.js';
import { changeSetFromArgs } from '../tree-readers/change-set.js';

/** The example infra repo shipped with the package, at base and head (from src/cli or dist/cli). */
export const DEMO_DIR = fileURLToPath(new URL('../../../fixtures/demo/', import.meta.url));

export const DEMO_HELP = `Usage: gpu-justify demo

Reviews the example pull request shipped in fixtures/demo (a Kueue ClusterQueue doubled from 6 to
12 GPUs) with the demo cluster's recorded telemetry (fixtures/demo/snapshot.json, replayed with no
network) and prints the comment the App would post. Takes no options.`;

/** The review of the demo PR, as `demo` prints it. */
export async function demoReview(): Promise<ReviewResult> {
  // Relative paths name the sides in the comment's footer as a reader would type them.
  const side = (name: string) => relative(process.cwd(), `${DEMO_DIR}${name}`) || '.';
  const changes = await changeSetFromArgs({ base: side('base'), head: side('head') });
  const policy = await loadPolicy(changes.base);
  const telemetry = await telemetryFromFlags({ snapshot: `${DEMO_DIR}snapshot.json` });
  return runReview({ changes, policy, ...(telemetry ? { telemetry } : {}) });
}

export async function demoCommand(argv: string[], out: Output): Promise<number> {
  parseFlags(argv, {});
  out.stdout(renderComment(await demoReview()));
  return 0;
}
