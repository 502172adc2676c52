import { cycleWord } from '../analysis/index.js';
import { formatWhen } from './clock.js';
import type { BoundProof, CycleSpan, Evidence, PackingRule } from '../domain/index.js';

const gpuWord = (n: number): string => `${n} GPU${n === 1 ? '' : 's'}`;

function between(s: Extract<CycleSpan, { whole: false }>): string {
  return `between ${formatWhen(s.from, s.cycle)} and ${formatWhen(s.to, s.cycle)}`;
}

function where(s: CycleSpan): string {
  return s.whole ? `over the whole ${cycleWord(s.cycle)}` : between(s);
}

function packingText(p: PackingRule): string {
  switch (p.code) {
    case 'no-room':
      return `runs of more than ${p.over} GPUs leave no room for runs of ${p.atLeast} or more`;
    case 'side-by-side':
      return `at most ${p.count} runs of more than ${p.over} GPUs fit side by side`;
  }
}

/** Why no schedule has a lower peak, in a sentence without a final full stop (`boundReason`). */
export function boundText(p: BoundProof): string {
  switch (p.code) {
    case 'no-runs':
      return 'there are no runs to place';
    case 'largest-job':
      return `the largest job (${p.workload}) needs ${gpuWord(p.gpus)}`;
    case 'work': {
      const what = `${p.gpuMinutes} GPU-minutes of work: at least ${gpuWord(p.value)}`;
      return p.span.whole ? `${where(p.span)} the runs do ${what}` : `${between(p.span)} the runs must do ${what}`;
    }
    case 'beside-compulsory':
      return (
        `wherever ${p.workload} (${gpuWord(p.gpus)}) runs, other runs that cannot move out of that time already ` +
        `hold ${gpuWord(p.beside)}: at least ${gpuWord(p.value)}`
      );
    case 'multiple-of':
      return `${boundText(p.inner)}, and every job uses a multiple of ${gpuWord(p.unit)}, so at least ${p.value}`;
    case 'take-turns':
      return (
        `no two runs of ${gpuWord(p.smallest)} or more fit side by side in ${gpuWord(2 * p.smallest - 1)}, and ${where(p.span)} ` +
        `they need ${p.minutes} minutes one after another, more than the ${p.spanMinutes} there: at least ${gpuWord(p.value)}`
      );
    case 'energy':
      return p.packing === null
        ? `${where(p.span)} the runs must do ${p.needMinutes} GPU-minutes of work, and with at most ${gpuWord(p.limit)} in use ` +
            `only ${p.roomMinutes} fit there (at some moments the runs able to be there add up to less than ${gpuWord(p.limit)}): at least ${gpuWord(p.value)}`
        : `${where(p.span)} the runs cannot be packed into ${gpuWord(p.limit)}: ${packingText(p.packing)}, and counted that way they need ` +
            `${p.needMinutes} of the ${p.roomMinutes} places there: at least ${gpuWord(p.value)}`;
    case 'search':
      return (
        `no choice of start times on the ${p.step}-minute grid keeps every run within ${gpuWord(p.value - 1)} ` +
        `(an exhaustive search; without it: ${boundText(p.before)})`
      );
    case 'dual': {
      const crowd = p.span.whole ? where(p.span) : `mostly ${between(p.span)}`;
      return (
        `weighing the ${p.step}-minute slots of the ${cycleWord(p.cycle)} by how crowded they are (${crowd}), every run must cover a share ` +
        `of that weight wherever it starts, and the shares add up to ${p.total.toFixed(2)} GPUs (the linear-programming bound): at least ${gpuWord(p.value)}`
      );
    }
  }
}

/** An evidence line's reference: the planner's carries its proof, worded here. */
export function evidenceRef(e: Evidence): string {
  if (e.proof === undefined) return e.ref;
  return e.ref === PROOF_ONLY ? boundText(e.proof) : `${e.ref}; lower bound: ${boundText(e.proof)}`;
}

/** The `ref` of planner evidence that is its proof alone. */
const PROOF_ONLY = 'lower bound';

/** Evidence as the JSON shows it: the reference in words, the proof's code beside it. */
export function evidenceJson(e: Evidence) {
  const { proof, ...rest } = e;
  return proof === undefined ? rest : { ...rest, ref: evidenceRef(e), boundCode: proof.code };
}
