/**
 * Escapes regex metacharacters so `value` matches only itself. The set is the same for JavaScript
 * and RE2 (PromQL), so one helper serves both.
 */
export function escapeRegex(value: string): string {
  return value.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}
