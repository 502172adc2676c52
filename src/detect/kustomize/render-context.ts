import type { Kustomization } from './kustomization.js';
import type { JsonObject } from './patch-apply.js';
import type { ObjectIndex } from './object-index.js';
import type { Hit } from './patches.js';
import type { Sources } from './sources.js';
import type { RenderNote } from './render-note.js';

/**
 * What a render makes and what its steps share: the objects with what the kustomization did to
 * them, the context each step reads and writes, and the budget every step spends from.
 */

/** One object of a kustomization's output, with what the kustomization did to it. */
export interface RenderedObject {
  obj: JsonObject;
  /** The `resources` (or `components`) entry of this kustomization that brought the object in. */
  entry: Hit;
  /** Defined in the kustomization's own directory, not taken from a base. */
  ownDir: boolean;
  /** This kustomization's patches (and `replicas` entries) that set the object's GPU fields, in order. */
  hits: Hit[];
  /** Built from a patch alone: why its base could not be read. */
  baseUnknown?: string;
  /** The resource file the object was loaded from, its name there (before any rename) and its lines. */
  origin?: { file: string; name: string; from: number; to: number };
  /** A patch whose effect could not be worked out: what the object declares after it is unknown. */
  unknownAt?: Hit;
  /**
   * `replacements` write its GPU fields from other objects, which are not computed: what they are
   * given (this object as its resources have it, the source objects or values), and the files
   * those come from, so a change to any of them is not followed.
   */
  replacedFrom?: { inputs: unknown[]; files: string[] };
  /**
   * The files `replacements` copied values from into its GPU fields, and the values: where the
   * object's count is not known, a change to one of them is not followed.
   */
  fedFrom?: { file: string; value: unknown }[];
}

export interface Render {
  objects: RenderedObject[];
  notes: RenderNote[];
  /** Inputs that could not be read (remote, or absent on this side). */
  missing: string[];
  /** The kustomizations and patch files read: their objects are only parts of the result. */
  sources: string[];
  /** Lines of resource files a replacement copied a value from: read, for the floor. */
  read: { file: string; from: number; to: number }[];
  /** The build would fail, or the render went past its budget: what it declares is unknown. */
  failed?: { file: string; line: number; why: string; absent?: string };
}

/** Tells whether an object (a patch's content, given the target's identity) is one a reader counts. */
export type IsCapacity = (obj: JsonObject) => boolean;

/**
 * What one render may do: patch applications weighted by the size of each patch, and objects held.
 * A kustomization of thousands of patches renders in a fraction of this; past it the render stops
 * and the kustomization is not followed, so no file can hold the parser for long.
 */
export const RENDER_BUDGET = { steps: 400_000, objects: 20_000 } as const;

export interface Budget {
  steps: number;
  objects: number;
}

export interface Ctx {
  k: Kustomization;
  sources: Sources;
  isCapacity: IsCapacity;
  stack: readonly string[];
  budget: Budget;
  out: Render;
  /** The objects as patches find them: out.objects while patches apply. */
  index: ObjectIndex<RenderedObject>;
}

export function spend(ctx: Ctx, steps: number, objects: number, at: Hit): boolean {
  const b = ctx.budget;
  b.steps += steps;
  b.objects += objects;
  if (b.steps <= RENDER_BUDGET.steps && b.objects <= RENDER_BUDGET.objects) return true;
  ctx.out.failed ??= {
    file: at.file,
    line: at.line,
    why:
      b.objects > RENDER_BUDGET.objects
        ? `its build holds more than ${RENDER_BUDGET.objects.toLocaleString('en-US')} objects`
        : `its patches take more than ${RENDER_BUDGET.steps.toLocaleString('en-US')} steps to apply (patches × objects they match × their size)`,
  };
  return false;
}
