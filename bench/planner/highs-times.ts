/**
 * HiGHS's times on the small instances' MILPs, in this process: run by the planner benchmark
 * once per fresh process (`node <loader> highs-times.ts`), printing JSON on stdout.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Highs } from 'highs';
import { median, timed } from '../lib/measure.js';
import { smallInstances } from './instances.js';
import { timeIndexedMilp } from './milp.js';

export const HIGHS_TIME_LIMIT_S = 120;
export const HIGHS_REPEATS = 3;

/** One process's figures, by instance name. */
export type HighsTimes = Record<string, { ms: number; status: string; objective: number }>;

/**
 * Every instance solved once, untimed, so the timed solves run HiGHS's optimised WebAssembly (V8
 * keeps one compilation of the module for every instance of it); then each instance's median of
 * HIGHS_REPEATS solves, each in a fresh HiGHS instance, its creation not timed: HiGHS carries
 * state from one solve to the next (the 20-run #2 model took 16-23 ms after the other instances'
 * solves and 60-108 ms solved ten times in a row in one instance; 25-28 ms each in a fresh one).
 */
async function highsTimes(): Promise<HighsTimes> {
  // Loaded through require: the package's typings describe its CommonJS build, whose default
  // export NodeNext typing cannot call from an ES module.
  const load = createRequire(import.meta.url)('highs') as () => Promise<Highs>;
  const options = { output_flag: false, time_limit: HIGHS_TIME_LIMIT_S, mip_rel_gap: 0 };
  const instances = smallInstances().map((inst) => ({ name: inst.name, lp: timeIndexedMilp(inst.jobs).lp }));
  const warm = await load();
  for (const inst of instances) warm.solve(inst.lp, options);
  const out: HighsTimes = {};
  for (const inst of instances) {
    const solves = [];
    for (let k = 0; k < HIGHS_REPEATS; k++) {
      const fresh = await load();
      solves.push(await timed(() => fresh.solve(inst.lp, options)));
    }
    const first = (solves[0] as (typeof solves)[number]).value;
    out[inst.name] = { ms: median(solves.map((s) => s.ms)), status: first.Status, objective: first.ObjectiveValue };
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await highsTimes()));
}
