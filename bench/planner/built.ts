import { readdirSync, statSync } from 'node:fs';
import type * as Stagger from '../../src/analysis/stagger/index.js';

// The planner as shipped: dist/, compiled by tsc, which is what the CLI, the Action and the App
// run (the TypeScript loader used for the other benchmarks adds a naming wrapper to every
// closure it creates, ~25% of the planner's time on these small instances). `npm run bench`
// builds first; a stale build is refused rather than measured.
const DIST = new URL('../../dist/analysis/stagger/', import.meta.url);
const SRC = new URL('../../src/analysis/stagger/', import.meta.url);

function freshBuild(): void {
  const built = statSync(new URL('plan.js', DIST), { throwIfNoEntry: false });
  const newest = Math.max(...readdirSync(SRC).map((f) => statSync(new URL(f, SRC)).mtimeMs));
  if (built === undefined || built.mtimeMs < newest)
    throw new Error('dist/ is older than src/analysis/stagger: run `npm run build` (or `npm run bench`, which builds first)');
}
freshBuild();

export const { lowerBound, planStagger } = (await import(new URL('index.js', DIST).href)) as typeof Stagger;
