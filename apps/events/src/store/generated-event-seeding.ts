/**
 * @module Adds many generated events to a database in batches: each batch is
 * made by the generator (generated-events.ts) and written through
 * `insertEvents` (event-seeds.ts) inside one transaction, so a million events
 * take one commit per batch instead of one per statement, and never sit in
 * memory all at once. Used by the seed command and the benchmarks.
 */
import type { Kysely } from 'kysely';
import { insertEvents } from './event-seeds.ts';
import { generateEvents } from './generated-events.ts';
import type { EventsDatabase } from './schema.ts';

/** Events generated and written per transaction, unless told otherwise. */
export const DEFAULT_SEED_BATCH = 10_000;

/** Options of {@link seedGeneratedEvents}. */
export type SeedGeneratedEventsOptions = {
  /** The rows' `created_at`. Default: the time of the call. */
  createdAt?: Date;
  /** Events per transaction, a whole number ≥ 1. Default {@link DEFAULT_SEED_BATCH}. */
  batchSize?: number;
  /** Called after each committed batch with how many events were generated so far (0…count). */
  onBatch?: (done: number) => void;
};

/**
 * Generates `count` events and inserts them, a batch per transaction. An
 * event whose ID exists already is skipped (as `insertEvents` does), so the
 * answer can be below `count`; a batch that fails rolls back alone, and the
 * batches committed before it stay.
 *
 * @param count how many events to generate, a whole number ≥ 0.
 * @returns how many rows were inserted.
 * @throws RangeError when `count` or `batchSize` is not such a number; the
 *   database's error when a batch cannot be written.
 * @example
 * const inserted = await seedGeneratedEvents(db, 1_000_000, { onBatch: (done) => bar.update(done) });
 */
export async function seedGeneratedEvents(db: Kysely<EventsDatabase>, count: number, options: SeedGeneratedEventsOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? DEFAULT_SEED_BATCH;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0 (got ${count}).`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1 (got ${batchSize}).`);
  const createdAt = options.createdAt ?? new Date();
  let inserted = 0;
  for (let done = 0; done < count; ) {
    const size = Math.min(batchSize, count - done);
    const events = generateEvents(size);
    inserted += await db.transaction().execute((trx) => insertEvents(trx, events, createdAt));
    done += size;
    options.onBatch?.(done);
  }
  return inserted;
}
