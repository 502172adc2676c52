// What report/ may use of analysis/: the findings' helpers for words and times. report/ imports
// analysis/ through this file only (eslint.config.js), so what it leans on stays in one list.
export { HELD_MOST } from './idle-pods.js';
export { gpusText } from './series.js';
export { usageProfile } from './stagger/check.js';
export { cycleWord, DAY, WEEK } from './stagger/circle.js';
export { cronLine, formatClock, formatWhen } from './stagger/cron.js';
