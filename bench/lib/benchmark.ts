import type { MemoryFigures } from './measure.js';

/** What one benchmark hands back: Markdown for the reader, figures for other benchmarks. */
export interface BenchResult {
  markdown: string;
  memory: MemoryFigures;
  data: Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  /** One line for `npm run bench -- --list`. */
  about: string;
  run(): Promise<BenchResult>;
}
