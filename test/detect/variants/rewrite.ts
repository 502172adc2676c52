import type { RealCase } from '../real-cases.js';
import type { Sides } from './variant-tree.js';

/** [kind, name, GPUs before, GPUs after] of one change, as real-cases.ts writes them. */
export type Row = [kind: string, name: string, before: number, after: number];

/**
 * A rewrite of a pull request that changes nothing a cluster would apply (or changes it in a way
 * `expect` says), registered in REWRITES (rewrites.ts). Adding one is one entry there.
 */
export interface Rewrite {
  id: string;
  /** What it does, in a few words, for the table. */
  what: string;
  /** The case's pull request rewritten, or null when the rewrite does not apply to its files. */
  apply(sides: Sides, c: RealCase, random: () => number): Sides | null | Promise<Sides | null>;
  /**
   * What the review of the rewritten pull request must say, when not the case's own answer:
   * `not-followed` (nothing in it can be read: a submodule, a file over the limit),
   * `not-followed-when-gpus-change` (two readings of the tree disagree, which matters only where the
   * case changes GPUs: a CPU-only edit is no change under either), or the case's changes
   * transformed (a `for_each` over two keys doubles every count).
   */
  expect?: 'not-followed' | 'not-followed-when-gpus-change' | ((rows: readonly Row[]) => Row[]);
}
