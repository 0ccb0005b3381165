/**
 * @module Whole-number settings a process reads from its environment (PORT,
 * TOOL_CALLS_PER_MINUTE, …), and how a process that cannot start with a
 * setting says so: one line naming it, then exit code 2 (the apps' code for
 * a refused setting; 1 is theirs for a failure at start, such as a database
 * that cannot be opened).
 */

/** {@link readWholeNumber}'s answer: the number, or why the value is refused. */
export type WholeNumberSetting = { ok: true; value: number } | { ok: false; problem: string };

/** The range of a whole-number setting, and its value when unset. */
export type WholeNumberRange = {
  /** The value when the setting is unset or empty. */
  fallback: number;
  /** The least value taken. */
  min: number;
  /** The greatest value taken. Default: no bound (below 2^53). */
  max?: number;
};

/**
 * Reads the whole-number setting `name` from its value as set: empty or unset
 * means `range.fallback`; otherwise a safe integer from `range.min` to `range.max`.
 *
 * @returns the number, or the problem in one sentence naming the setting
 *   ("PORT must be a whole number from 0 to 65535.", "IDEMPOTENCY_LEASE_SECONDS
 *   must be a whole number, at least 1." when there is no upper bound).
 */
export function readWholeNumber(name: string, value: string | undefined, range: WholeNumberRange): WholeNumberSetting {
  const number = value ? Number(value) : range.fallback;
  const { min, max = Number.MAX_SAFE_INTEGER } = range;
  if (Number.isSafeInteger(number) && number >= min && number <= max) return { ok: true, value: number };
  const expected = range.max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return { ok: false, problem: `${name} must be a whole number${range.max === undefined ? ', ' : ' '}${expected}.` };
}

/** Where a refused setting is told: a pino logger's `fatal` fits. */
export type SettingRefusalLog = { fatal(details: Record<string, string | undefined>, message: string): void };

/**
 * Ends the process with exit code 2 after one `fatal` line: the setting and
 * its value as set (`{ PORT: '70000' }`), and the problem as message. For a
 * process that cannot start with a setting; nothing has been opened yet.
 */
export function refuseSetting(log: SettingRefusalLog, setting: Record<string, string | undefined>, problem: string): never {
  log.fatal(setting, problem);
  process.exit(2);
}

/**
 * The whole-number setting `name` of `env` ({@link readWholeNumber}); when its
 * value is refused, the process ends ({@link refuseSetting}, exit code 2).
 *
 * @param env where settings are read. Default: `process.env`.
 * @example const port = wholeNumberSetting(logger, 'PORT', { fallback: 3200, min: 0, max: 65_535 });
 */
export function wholeNumberSetting(log: SettingRefusalLog, name: string, range: WholeNumberRange, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  const read = readWholeNumber(name, raw, range);
  if (!read.ok) refuseSetting(log, { [name]: raw }, read.problem);
  return read.value;
}
