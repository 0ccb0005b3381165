/**
 * @module How the benchmarks time calls: warm-up calls first, then timed
 * calls one after another (never at once), each timed with
 * `performance.now()` in milliseconds; p50 and p95 are nearest-rank
 * percentiles of those timings. A figure and its baseline are timed
 * alternately, call by call, so whatever else the machine does falls on
 * both alike.
 */

/** Timings of repeated calls, in milliseconds. */
export type CallTimings = {
  /** Median, nearest rank. */
  p50: number;
  /** 95th percentile, nearest rank. */
  p95: number;
  mean: number;
  /** How many calls were timed. */
  samples: number;
};

/** How many calls to time. */
export type CallBudget = {
  /** Timed calls wanted, ≥ 1. */
  calls: number;
  /** Untimed calls first (JIT, caches, connections). Default 5. */
  warmUp?: number;
  /**
   * Stop timing once this many milliseconds went by and at least `minCalls`
   * were timed, so a slow call (a search over a million rows) does not take
   * minutes. Default: no limit.
   */
  maxMs?: number;
  /** The fewest timed calls under `maxMs`. Default 5. */
  minCalls?: number;
};

/**
 * The nearest-rank percentile of ascending `sorted` values.
 *
 * @param p percent, 0–100.
 * @returns NaN for no values.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** p50, p95, mean and count of unsorted timings (ms). */
export function summarizeTimings(timings: readonly number[]): CallTimings {
  const sorted = [...timings].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean, samples: sorted.length };
}

/**
 * Times `call` (see the module): `warmUp` untimed calls, then up to `calls`
 * timed ones.
 *
 * @throws whatever `call` throws.
 */
export async function timeCalls(call: () => Promise<unknown>, budget: CallBudget): Promise<CallTimings> {
  const { figure } = await timeSideBySide({ figure: call }, budget);
  return figure;
}

/**
 * Times several calls alternately (see the module): each round calls every
 * one of `calls` once, in the order given, timing each on its own.
 *
 * @returns the timings of each, under the same keys.
 * @throws whatever a call throws.
 * @example
 * const { figure, baseline } = await timeSideBySide({ figure: () => pipeline.invoke(call), baseline: () => services.searchEvents(filters) }, { calls: 200 });
 */
export async function timeSideBySide<K extends string>(calls: Record<K, () => Promise<unknown>>, budget: CallBudget): Promise<Record<K, CallTimings>> {
  const entries = Object.entries(calls) as Array<[K, () => Promise<unknown>]>;
  for (let round = 0; round < (budget.warmUp ?? 5); round += 1) for (const [, call] of entries) await call();
  const timings = new Map<K, number[]>(entries.map(([key]) => [key, []]));
  const started = performance.now();
  const minCalls = Math.min(budget.calls, budget.minCalls ?? 5);
  for (let round = 0; round < budget.calls; round += 1) {
    if (budget.maxMs !== undefined && round >= minCalls && performance.now() - started > budget.maxMs) break;
    for (const [key, call] of entries) {
      const callStarted = performance.now();
      await call();
      timings.get(key)!.push(performance.now() - callStarted);
    }
  }
  return Object.fromEntries(entries.map(([key]) => [key, summarizeTimings(timings.get(key)!)])) as Record<K, CallTimings>;
}

/** The median of `values` (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
