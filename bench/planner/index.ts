import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Highs } from 'highs';
import type { Benchmark, BenchResult } from '../lib/benchmark.js';
import { fmt, HeapSampler, median, memoryReport, now, table, timed } from '../lib/measure.js';
import { lowerBound, planStagger } from './built.js';
import { catalogInstance, smallInstances, weekCycle, weekVariants } from './instances.js';
import type { Instance } from './instances.js';
import { timeIndexedMilp } from './milp.js';
import { HIGHS_REPEATS, HIGHS_TIME_LIMIT_S, type HighsTimes } from './highs-times.js';
import { TIMED_MS, WARM_MS, type ProcessTimes } from './planner-times.js';
import { bruteForcePeak } from '../../test/analysis/stagger/helpers.js';

const WEEK_RUNS = 2_000;
// The weekly-cycle seeds: the weekday variants' own (7) and every seed tried while building it.
const WEEK_SEEDS = [7, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100];
const LARGE_TIME_LIMIT_S = 60;

// The planner's steady-state speed differs from one process to the next on this machine, by up
// to ~1.9x, the same for every part of it (20 runs #2: 0.34-0.38 ms in some processes, 0.62-0.68
// ms in others; arc energies alone 65 or 120 us), and the same with V8's background threads off.
// Both sides are therefore timed in fresh processes, the planner's and HiGHS's apart (in one
// process, HiGHS's WebAssembly runs slowed the planner's timings up to 3x): the median over the
// processes, with the planner's range shown.
const PLANNER_PROCESSES = 5;
const HIGHS_PROCESSES = 3;

/** Runs `script` (beside this file) in `count` fresh processes and parses each one's JSON. */
function inProcesses<T>(script: string, count: number): T[] {
  const file = fileURLToPath(new URL(script, import.meta.url));
  return Array.from({ length: count }, () => {
    const res = spawnSync(process.execPath, [...process.execArgv, file], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (res.status !== 0) throw new Error(`${script} failed (exit ${res.status ?? res.signal}): ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  });
}

const ratioText = (r: number): string => `${fmt(r, r < 10 ? 2 : 0)}×`;

async function run(): Promise<BenchResult> {
  const sampler = new HeapSampler();
  // The package exports no package.json; read it beside its entry point.
  const entry = createRequire(import.meta.url).resolve('highs');
  const version = (JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  // Loaded through require: the package's typings describe its CommonJS build, whose default
  // export NodeNext typing cannot call from an ES module.
  const highsLoader = createRequire(import.meta.url)('highs') as () => Promise<Highs>;

  const small = smallInstances();
  const smallRows: (string | number)[][] = [];
  const smallData: Record<string, unknown>[] = [];
  const byProcess = inProcesses<ProcessTimes>('./planner-times.ts', PLANNER_PROCESSES);
  const highsByProcess = inProcesses<HighsTimes>('./highs-times.ts', HIGHS_PROCESSES);
  // Here only for the large probe below.
  const load = await timed(() => highsLoader());
  for (const inst of small) {
    const plan = planStagger(inst.jobs);
    const times = byProcess.map((p) => p[inst.name]);
    if (times.some((t) => t === undefined || t.peak !== plan.peakGpus))
      throw new Error(`${inst.name}: a timing process planned another peak or none`);
    const ms = times.map((t) => t?.ms ?? NaN);
    const planner = {
      plan,
      ms: median(ms),
      low: Math.min(...ms),
      high: Math.max(...ms),
      firstMs: median(times.map((t) => t?.firstMs ?? NaN)),
    };
    const milp = timeIndexedMilp(inst.jobs);
    const runs = highsByProcess.map((p) => p[inst.name]);
    const first = runs[0];
    if (first === undefined || runs.some((r) => r === undefined || r.status !== first.status || r.objective !== first.objective))
      throw new Error(`${inst.name}: HiGHS processes disagree`);
    const solved = { value: { Status: first.status, ObjectiveValue: first.objective }, ms: median(runs.map((r) => r?.ms ?? NaN)) };
    sampler.mark();
    const optimum = solved.value.Status === 'Optimal' ? Math.round(solved.value.ObjectiveValue) : null;
    // The MILP is checked, not trusted: its optimum lies between the planner's proven bound and
    // its peak (every planner schedule is a MILP solution), and on the smallest instances it
    // equals plain enumeration.
    if (optimum !== null) {
      if (optimum < planner.plan.lowerBound || optimum > planner.plan.peakGpus)
        throw new Error(`${inst.name}: MILP optimum ${optimum} outside [${planner.plan.lowerBound}, ${planner.plan.peakGpus}]`);
      if (inst.jobs.length <= 5 && bruteForcePeak(inst.jobs, milp.step) !== optimum)
        throw new Error(`${inst.name}: MILP optimum ${optimum} differs from enumeration`);
    }
    const ratio = solved.ms / planner.ms;
    const worstRatio = solved.ms / planner.high;
    smallData.push({
      name: inst.name,
      runs: inst.jobs.length,
      slots: milp.slots,
      plannerPeak: planner.plan.peakGpus,
      lowerBound: planner.plan.lowerBound,
      optimalClaimed: planner.plan.optimal,
      highsStatus: solved.value.Status,
      highsObjective: solved.value.ObjectiveValue,
      plannerMs: planner.ms,
      plannerMsByProcess: ms,
      plannerFirstMs: planner.firstMs,
      highsMs: solved.ms,
      ratio,
      worstRatio,
    });
    smallRows.push([
      inst.name,
      inst.jobs.length,
      `${milp.slots} × ${milp.step} min`,
      milp.binaries,
      planner.plan.naivePeakGpus,
      planner.plan.peakGpus,
      planner.plan.optimal ? 'yes' : 'no',
      optimum ?? `${solved.value.Status} (${fmt(solved.value.ObjectiveValue, 0)})`,
      optimum === null ? '?' : planner.plan.peakGpus === optimum ? 'equal' : `+${planner.plan.peakGpus - optimum}`,
      fmt(planner.ms, 3),
      `${fmt(planner.low, 3)}–${fmt(planner.high, 3)}`,
      fmt(planner.firstMs, 3),
      fmt(solved.ms, 1),
      ratioText(ratio),
      ratioText(worstRatio),
    ]);
  }

  const week = weekVariants(WEEK_RUNS, 7);
  const weekRows: (string | number)[][] = [];
  const weekData: Record<string, unknown>[] = [];
  const measureLarge = (inst: Instance, rows: (string | number)[][], data: Record<string, unknown>[]) => {
    const times: number[] = [];
    let plan = planStagger(inst.jobs, { cycle: inst.cycle });
    for (let i = 0; i < 3; i++) {
      const t = now();
      plan = planStagger(inst.jobs, { cycle: inst.cycle });
      times.push(now() - t);
    }
    sampler.mark();
    // The plan's bound is the best it proved (energetic, compulsory parts, root proofs, LP dual);
    // the energetic bound alone is shown beside it for comparison.
    const energetic = lowerBound(inst.jobs, undefined, inst.cycle).value;
    const gap = (plan.peakGpus - plan.lowerBound) / plan.lowerBound;
    data.push({
      name: inst.name,
      runs: inst.jobs.length,
      cycle: inst.cycle,
      peak: plan.peakGpus,
      lowerBound: plan.lowerBound,
      energetic,
      naive: plan.naivePeakGpus,
      gap,
      ms: median(times),
    });
    rows.push([
      inst.name,
      inst.jobs.length,
      plan.naivePeakGpus,
      plan.peakGpus,
      energetic,
      plan.lowerBound,
      `${fmt(100 * gap, 2)}%`,
      plan.optimal ? 'yes' : 'no',
      fmt(median(times), 1),
    ]);
    return median(times);
  };
  const addLarge = (inst: Instance) => measureLarge(inst, weekRows, weekData);
  // The week as the pipeline plans it: one catalog on a repeating week.
  const cycleRows: (string | number)[][] = [];
  const cycleData: Record<string, unknown>[] = [];
  for (const seed of WEEK_SEEDS) measureLarge(weekCycle(WEEK_RUNS, seed), cycleRows, cycleData);
  const cycleGaps = cycleData.map((d) => d['gap'] as number);
  const cycleMs = cycleData.map((d) => d['ms'] as number);
  let weekTotal = 0;
  for (const inst of week) weekTotal += addLarge(inst);
  // Is the gap the planner's or the bound's? HiGHS on one weekday, under a time limit, gives
  // its best schedule and its own proven bound for the same MILP.
  const probe = week[0] as Instance;
  const probeMilp = timeIndexedMilp(probe.jobs);
  const probeStart = now();
  const probeResult = load.value.withModel({ format: 'lp', data: probeMilp.lp }, (model) => {
    model.options.set({ output_flag: false, time_limit: LARGE_TIME_LIMIT_S });
    model.run();
    return { status: model.getModelStatus(), primal: model.info.get('objective_function_value'), dual: model.info.get('mip_dual_bound') };
  });
  const probeMs = now() - probeStart;
  const statusName =
    Object.entries(load.value.constants.modelStatus).find(([, code]) => code === probeResult.status)?.[0] ?? String(probeResult.status);
  sampler.mark();
  const oneDay = catalogInstance('2,000 runs in one day', WEEK_RUNS, 5, 2024, 24);
  const oneDayMs = addLarge(oneDay);

  const ratios = smallData.map((d) => d['ratio'] as number);
  const equal = smallData.filter(
    (d) => d['highsStatus'] === 'Optimal' && Math.round(d['highsObjective'] as number) === d['plannerPeak'],
  ).length;
  const markdown = [
    `### planner: \`planStagger\` against HiGHS ${version} (WASM, single-threaded) on the time-indexed MILP`,
    '',
    `HiGHS loaded in ${fmt(load.ms, 0)} ms (not counted below). HiGHS time is LP-text parse + presolve + branch-and-cut to a proven optimum (\`mip_rel_gap: 0\`, time limit ${HIGHS_TIME_LIMIT_S} s), the median over ${HIGHS_PROCESSES} fresh processes of each process's median of ${HIGHS_REPEATS} solves, each in a fresh HiGHS instance (its creation not counted), after one untimed solve of every instance. Planner time is the median over ${PLANNER_PROCESSES} other fresh processes of each process's median of ≥ 5 calls (≥ ${TIMED_MS} ms of calls) of the built planner (\`dist/\`, as the CLI and the App run it), after ${WARM_MS} ms of untimed calls on the same instance; the range is the fastest and slowest process's; "first call" is the median over the processes of the instance's first plan, before its warm-up (the instances before it have warmed the shared code).`,
    '',
    table(
      [
        'instance',
        'runs',
        'grid',
        'MILP binaries',
        'naive peak',
        'planner peak',
        'planner claims optimal',
        'MILP optimum',
        'planner vs MILP',
        'planner ms',
        'planner ms, range',
        'first call ms',
        'HiGHS ms',
        'HiGHS ÷ planner',
        'HiGHS ÷ slowest planner',
      ],
      smallRows,
    ),
    '',
    `Planner peak equal to the MILP optimum on ${equal} of ${smallData.length}; time ratio HiGHS ÷ planner: min ${ratioText(Math.min(...ratios))}, median ${ratioText(median(ratios))}, max ${ratioText(Math.max(...ratios))}; at least 50× on ${ratios.filter((r) => r >= 50).length} of ${ratios.length}, and against the slowest process's planner time on ${smallData.filter((d) => (d['worstRatio'] as number) >= 50).length} of ${ratios.length}.`,
    '',
    `The week: ${WEEK_RUNS.toLocaleString('en-US')} runs over a week at 5-minute resolution, planned as the pipeline plans a catalog whose workloads name weekdays: one repeating week of 2,016 slots (each weekday's mix of ~286 runs names its day, so a run crossing midnight spills into the next weekday, Sunday's into Monday's). One instance per seed, every seed tried. Planner time is the median of 3 calls.`,
    '',
    table(
      [
        'instance',
        'runs',
        'naive peak',
        'planner peak',
        'energetic bound',
        "planner's bound",
        'gap to bound',
        'proved optimal',
        'planner ms',
      ],
      cycleRows,
    ),
    '',
    `Weekly cycle: within 2% of the bound on ${cycleGaps.filter((g) => g <= 0.02).length} of ${cycleGaps.length} seeds (largest gap ${fmt(100 * Math.max(...cycleGaps), 2)}%); slowest ${fmt(Math.max(...cycleMs), 1)} ms, median ${fmt(median(cycleMs), 1)} ms.`,
    '',
    `Harder than the week: the same seven weekday mixes (seed 7) each planned as its own repeating day (each is then a day whose runs repeat every day, so its peak cannot hide behind a busier day), and the same ${WEEK_RUNS.toLocaleString('en-US')} runs packed into one day (a week of identical days). Planner time is the median of 3 calls.`,
    '',
    table(
      [
        'instance',
        'runs',
        'naive peak',
        'planner peak',
        'energetic bound',
        "planner's bound",
        'gap to bound',
        'proved optimal',
        'planner ms',
      ],
      weekRows,
    ),
    '',
    `HiGHS on the ${probe.name} MILP (${probeMilp.binaries.toLocaleString('en-US')} binaries, ${probeMilp.rows} rows), ${LARGE_TIME_LIMIT_S} s limit: stopped after ${fmt(probeMs / 1000, 1)} s with model status \`${statusName}\`, best peak ${String(probeResult.primal)}, proven bound ${String(probeResult.dual)} (planner: peak ${String(weekData[0]?.['peak'])}, bound ${String(weekData[0]?.['lowerBound'])}).`,
    '',
    `Seven weekday plans: ${fmt(weekTotal, 1)} ms in all, ${weekData.slice(0, week.length).filter((d) => (d['gap'] as number) <= 0.02).length} of ${week.length} within 2% of their bound; one day of ${WEEK_RUNS.toLocaleString('en-US')} runs: ${fmt(oneDayMs, 1)} ms.`,
  ].join('\n');
  return {
    markdown,
    memory: memoryReport(sampler),
    data: {
      highsVersion: version,
      highsLoadMs: load.ms,
      small: smallData,
      weekCycle: cycleData,
      week: weekData,
      probe: {
        name: probe.name,
        binaries: probeMilp.binaries,
        ms: probeMs,
        status: statusName,
        primal: Number(probeResult.primal),
        dual: Number(probeResult.dual),
      },
      weekTotalMs: weekTotal,
      oneDayMs,
    },
  };
}

export const plannerBench: Benchmark = {
  name: 'planner',
  about: 'planStagger vs the HiGHS time-indexed MILP; 2,000-run week against the lower bound',
  run,
};
