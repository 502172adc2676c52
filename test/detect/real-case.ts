import type { Edit } from './real-fixtures.js';

/** [kind, name, GPUs before, GPUs after] of one reported change. */
export type Row = [kind: string, name: string, before: number, after: number];

/**
 * A pull request on a real public file (fixtures/real/SOURCES.md): the file as published is the
 * base, `edits` make the head. `expect` is worked out by hand from the file and the cloud's
 * GPUs per machine (`why` shows the arithmetic): the changes a review must report (none, for a
 * negative control), or `not-followed` where the capacity cannot be known from the repository
 * (a module that is not in it, values that come from elsewhere).
 */
export interface RealCase {
  id: string;
  /** Fixture file or directory under fixtures/real. */
  target: string;
  /**
   * The target directory is the repository's root: paths its files give from the root (a Flux
   * Kustomization's `spec.path`) are read there, so the tree is taken without the target's prefix.
   */
  root?: true;
  /** The repository's own names (`github.com/owner/name`, lower case): a module it calls by its own URL is read from the tree. */
  repositories?: readonly string[];
  edits: Edit[];
  expect: Row[] | 'not-followed';
  /** The rows are a lower bound the review reports with a warning that says so (a per-zone count, zones unknown). */
  partial?: true;
  /**
   * Where the review falls short of `expect` today, honestly: it says not followed (never a silent
   * miss, never another count), for the reason given. The case then fails once the review reads
   * it, so this is removed; `--cases` prints it, and a negative control with it counts as a false alarm.
   */
  today?: { outcome: 'not-followed'; reason: string };
  why: string;
}
