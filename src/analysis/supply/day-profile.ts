import type { PlacedRun } from '../../domain/index.js';
import { DAY } from '../stagger/circle.js';
import { usageProfile } from '../stagger/profile.js';
import type { Timeline } from '../series.js';
import { itemAt } from '../../util/indexed.js';

/** Day profiles (flatDay) hold one item per slot of the day. */
const SIZED = 'a-day-profile-has-day-slots-items';

/**
 * Demand and supply are compared hour by hour of the UTC day, in slots of this many minutes:
 * the review's telemetry step, so each day of the window gives one sample per slot.
 */
const SLOT_MINUTES = 5;
export const DAY_SLOTS = DAY / SLOT_MINUTES;

/** A level at each slot of the day, from 00:00 UTC. */
export type DayProfile = readonly number[];

export const flatDay = (gpus: number): number[] => new Array<number>(DAY_SLOTS).fill(gpus);

/**
 * The GPUs a schedule holds at each slot of the day: the most at any minute of the slot; a weekly
 * plan is folded onto the day, each slot taking its busiest weekday.
 */
export function planDay(schedule: readonly PlacedRun[], cycle: number): number[] {
  const out = flatDay(0);
  for (const step of usageProfile(schedule, cycle).steps) {
    if (step.gpus <= 0) continue;
    for (let minute = step.from; minute < step.to;) {
      const slot = Math.floor((minute % DAY) / SLOT_MINUTES);
      out[slot] = Math.max(itemAt(out, slot, SIZED), step.gpus);
      // On to the next slot's first minute.
      minute = (Math.floor(minute / SLOT_MINUTES) + 1) * SLOT_MINUTES;
    }
  }
  return out;
}

/** The slot of the day a unix time falls in (UTC). */
export function slotOf(t: number): number {
  const minute = Math.floor((((t % 86_400) + 86_400) % 86_400) / 60);
  return Math.floor(minute / SLOT_MINUTES);
}

/**
 * The least of a level at each slot of the day over the window's days, or null where no sample
 * fell in the slot; slots the samples miss (a step coarser than a slot) take the slot before.
 */
export function leastByDaySlot(line: Timeline): (number | null)[] {
  const out: (number | null)[] = new Array<number | null>(DAY_SLOTS).fill(null);
  for (const [t, v] of line) {
    const s = slotOf(t);
    const was = out[s];
    out[s] = was === null || was === undefined ? v : Math.min(was, v);
  }
  if (out.every((v) => v === null)) return out;
  const first = out.findIndex((v) => v !== null);
  for (let i = 1; i <= DAY_SLOTS; i++) {
    const s = (first + i) % DAY_SLOTS;
    if (out[s] === null) out[s] = out[(s + DAY_SLOTS - 1) % DAY_SLOTS] ?? null;
  }
  return out;
}
