/**
 * `npm run bench [-- NAME…]`: runs every benchmark (or the named ones), each in a fresh Node
 * process so that its peak RSS and heap are its own, and prints Markdown for BENCHMARKS.md.
 * Figures are for comparison within one run on one machine, never thresholds. Children get
 * --expose-gc so memory figures can include the heap still reachable after a full collection.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Benchmark, BenchResult } from './lib/benchmark.js';

const NAMES = [
  'detect',
  'telemetry',
  'planner',
  'app',
  'action',
  'memory',
  'detect-scale',
  'app-stall',
  'hostile-expressions',
  'redactor',
] as const;
type Name = (typeof NAMES)[number];

async function load(name: Exclude<Name, 'memory'>): Promise<Benchmark> {
  switch (name) {
    case 'detect':
      return (await import('./detect/index.js')).detectBench;
    case 'telemetry':
      return (await import('./telemetry/index.js')).telemetryBench;
    case 'planner':
      return (await import('./planner/index.js')).plannerBench;
    case 'app':
      return (await import('./app/index.js')).appBench;
    case 'action':
      return (await import('./action/index.js')).actionBench;
    case 'detect-scale':
      return (await import('./detect-scale/index.js')).detectScaleBench;
    case 'app-stall':
      return (await import('./app-stall/index.js')).appStallBench;
    case 'hostile-expressions':
      return (await import('./hostile-expressions/index.js')).hostileExpressionsBench;
    case 'redactor':
      return (await import('./redactor/index.js')).redactorBench;
  }
}

/** Runs one benchmark in this process and writes its result to `out`. */
async function child(name: Exclude<Name, 'memory'> | 'baseline', out: string): Promise<void> {
  let result: BenchResult;
  if (name === 'baseline') {
    const { baselineResult } = await import('./memory.js');
    result = await baselineResult();
  } else {
    result = await (await load(name)).run();
  }
  writeFileSync(out, JSON.stringify(result));
}

function spawnChild(name: string, dir: string): BenchResult {
  const out = path.join(dir, `${name}.json`);
  const res = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', process.argv[1] as string, '--child', name, out], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`benchmark ${name} failed (exit ${res.status ?? res.signal})`);
  return JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
}

function machine(): string {
  const cpus = os.cpus();
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: ${os.availableParallelism()} CPUs (nproc), ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
    `- node ${process.version}`,
    `- command: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1] as Exclude<Name, 'memory'> | 'baseline', args[2] as string);
  if (args[0] === '--list') {
    for (const name of NAMES)
      console.log(
        `${name}: ${name === 'memory' ? 'peak RSS and heap of the detect and app runs against a bare process' : (await load(name)).about}`,
      );
    return;
  }
  const unknown = args.filter((a) => !(NAMES as readonly string[]).includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${NAMES.join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  const chosen = args.length === 0 ? [...NAMES] : (args as Name[]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-justify-bench-'));
  try {
    console.log(machine());
    const results = new Map<string, BenchResult>();
    for (const name of chosen) {
      if (name === 'memory') continue;
      const r = spawnChild(name, dir);
      results.set(name, r);
      console.log(`\n${r.markdown}`);
    }
    if (chosen.includes('memory')) {
      const { memoryMarkdown } = await import('./memory.js');
      const of = (n: string): BenchResult => results.get(n) ?? spawnChild(n, dir);
      console.log(`\n${memoryMarkdown({ baseline: of('baseline'), detect: of('detect'), app: of('app') })}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
