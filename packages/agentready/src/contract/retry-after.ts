/**
 * @module When to retry, in plain words: the wait a RATE_LIMITED or
 * TEMPORARY_FAILURE result names in `retryAfterSeconds`, written for a person
 * or a model to read ("Try again in 2 minutes.").
 */

/**
 * A whole number of seconds in words: "1 second", "30 seconds", "2 minutes",
 * "1 minute and 5 seconds", "1 hour and 30 minutes" (seconds dropped past an hour).
 *
 * @param seconds a non-negative whole number (a fraction is rounded up).
 */
export function secondsInWords(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const joined = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small === 0 ? count(big, bigUnit) : `${count(big, bigUnit)} and ${count(small, smallUnit)}`;
  if (whole < 60) return count(whole, 'second');
  if (whole < 3600) return joined(Math.floor(whole / 60), 'minute', whole % 60, 'second');
  return joined(Math.floor(whole / 3600), 'hour', Math.floor((whole % 3600) / 60), 'minute');
}
