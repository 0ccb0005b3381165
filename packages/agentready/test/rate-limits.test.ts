/**
 * The toolkit's rate limits on their real stores: two limiters on one
 * PostgreSQL database (as two site processes would have) share one count;
 * Redis (127.0.0.1:6379, a key prefix per test) counts the same way; the
 * sign-in limits refuse an account after its failures and clear them on
 * success; a store that fails lets calls through or refuses them, as told.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool } from '../src/contract/index.ts';
import {
  type AuditEvidence,
  createInvocationPipeline,
  createRateLimiter,
  createSignInLimits,
  databaseRateLimitStore,
  type RateLimitStore,
} from '../src/runtime/index.ts';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type RuntimeTables } from '../src/store/index.ts';
import { createTestSchemaDatabase, requirePostgresForTests } from '@agentready/testing';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the rate limit store tests' });
const logger = pino({ level: 'silent' });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function postgresDatabase(): Promise<{ url: string; db: Kysely<RuntimeTables> }> {
  const test = await createTestSchemaDatabase<RuntimeTables>(POSTGRES_URL, 'rate_limit_test', [
    { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  ]);
  cleanups.push(() => test.drop());
  return test;
}

async function redisStore(): Promise<RateLimitStore> {
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  cleanups.push(() => redis.quit());
  await redis.ping();
  return { redis, keyPrefix: `test-${randomBytes(6).toString('hex')}-` };
}

describe.runIf(runPostgres)('on PostgreSQL', () => {
  it('two limiters on one database, as two processes have, share one count per key', async () => {
    const first = await postgresDatabase();
    const secondDb = openDatabase<RuntimeTables>({ url: first.url });
    cleanups.push(() => secondDb.destroy());
    const options = { name: 'tool-calls', points: 3, durationSeconds: 60, logger };
    const processA = createRateLimiter({ ...options, store: databaseRateLimitStore(first.db) });
    const processB = createRateLimiter({ ...options, store: databaseRateLimitStore(secondDb) });
    expect(await processA.consume('ses-1')).toEqual({ allowed: true, remaining: 2 });
    expect(await processB.consume('ses-1')).toEqual({ allowed: true, remaining: 1 });
    expect(await processA.consume('ses-1')).toEqual({ allowed: true, remaining: 0 });
    const refused = await processB.consume('ses-1');
    expect(refused).toMatchObject({ allowed: false, reason: 'limited' });
    expect(await processA.consume('ses-2')).toMatchObject({ allowed: true });
  });

  it('lets a key call again once its window has passed', async () => {
    const { db } = await postgresDatabase();
    const limiter = createRateLimiter({ store: databaseRateLimitStore(db), name: 'short', points: 1, durationSeconds: 1, logger });
    expect(await limiter.consume('ses-1')).toMatchObject({ allowed: true });
    const refused = await limiter.consume('ses-1');
    expect(refused.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await limiter.consume('ses-1')).toMatchObject({ allowed: true });
  });
});

describe('on Redis', () => {
  it('counts per key, refuses over the limit with when to retry, and a reset clears the count', async () => {
    const store = await redisStore();
    const limiter = createRateLimiter({ store, name: 'tool-calls', points: 2, durationSeconds: 30, logger });
    expect(await limiter.consume('acc-1')).toMatchObject({ allowed: true });
    expect(await limiter.consume('acc-1')).toMatchObject({ allowed: true });
    const refused = await limiter.consume('acc-1');
    expect(refused).toMatchObject({ allowed: false, reason: 'limited' });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(1);
    expect(await limiter.consume('acc-2')).toMatchObject({ allowed: true });
    await limiter.reset('acc-1');
    expect(await limiter.consume('acc-1')).toMatchObject({ allowed: true });
  });

  it('two clients (two processes) share one count', async () => {
    const store = await redisStore();
    const other = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    cleanups.push(() => other.quit());
    await other.ping();
    const options = { name: 'tool-calls', points: 1, durationSeconds: 30, logger };
    expect(await createRateLimiter({ ...options, store }).consume('k')).toMatchObject({ allowed: true });
    const fromOther = await createRateLimiter({ ...options, store: { redis: other, keyPrefix: 'keyPrefix' in store ? store.keyPrefix! : '' } }).consume('k');
    expect(fromOther.allowed).toBe(false);
  });
});

/** The sign-in limits' stores: the site's database (SQLite, PostgreSQL) or Redis. */
const SIGN_IN_STORES: Array<[string, () => Promise<RateLimitStore>]> = [
  ['SQLite', sqliteStore],
  ...(runPostgres ? [['PostgreSQL', async () => databaseRateLimitStore((await postgresDatabase()).db)] as [string, () => Promise<RateLimitStore>]] : []),
  ['Redis', redisStore],
];

async function sqliteStore(): Promise<RateLimitStore> {
  const db = openDatabase<RuntimeTables>({ url: ':memory:' });
  cleanups.push(() => db.destroy());
  await migrateToLatest(db, [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }]);
  return databaseRateLimitStore(db);
}

describe.each(SIGN_IN_STORES)('the sign-in limits on %s', (_store, openStore) => {
  it('refuse an account after its failed attempts, per account, and a success clears them', async () => {
    const limits = createSignInLimits({ store: await openStore(), logger, perAccount: { points: 2, durationSeconds: 60 } });
    expect(await limits.attempt({ account: 'Person@Example.org', callerAddress: '192.0.2.1' })).toBeNull();
    expect(await limits.attempt({ account: 'person@example.org ', callerAddress: '192.0.2.1' })).toBeNull();
    const refused = await limits.attempt({ account: 'person@example.org', callerAddress: '192.0.2.1' });
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused?.retryAfterSeconds).toBeGreaterThan(1);
    expect(refused?.message).not.toContain('example.org');
    expect(await limits.attempt({ account: 'someone@example.org', callerAddress: '192.0.2.1' })).toBeNull();
    await limits.succeeded({ account: 'someone@example.org', callerAddress: '192.0.2.1' });
    expect(await limits.attempt({ account: 'someone@example.org', callerAddress: '192.0.2.1' })).toBeNull();
    expect(await limits.attempt({ account: 'someone@example.org', callerAddress: '192.0.2.1' })).toBeNull();
  });

  it('count no successful sign-in against its address: 25 from one address all go on, with the default limits', async () => {
    const limits = createSignInLimits({ store: await openStore(), logger });
    for (let signIn = 1; signIn <= 25; signIn += 1) {
      const attempt = { account: 'host@example.org', callerAddress: '192.0.2.7' };
      expect(await limits.attempt(attempt), `sign-in ${signIn}`).toBeNull();
      await limits.succeeded(attempt);
    }
    // The failures that follow are still counted in full: the address stops after its 20th.
    for (let failure = 1; failure <= 20; failure += 1)
      expect(await limits.attempt({ account: `guess-${failure}@example.org`, callerAddress: '192.0.2.7' }), `failure ${failure}`).toBeNull();
    expect(await limits.attempt({ account: 'host@example.org', callerAddress: '192.0.2.7' })).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await limits.attempt({ account: 'host@example.org', callerAddress: '198.51.100.1' })).toBeNull();
  });

  it('still lock an account after 5 failures in a row, whatever successes came before', async () => {
    const limits = createSignInLimits({ store: await openStore(), logger });
    const attempt = { account: 'person@example.org', callerAddress: '192.0.2.9' };
    for (let round = 1; round <= 3; round += 1) {
      for (let failure = 1; failure <= 4; failure += 1) expect(await limits.attempt(attempt)).toBeNull();
      expect(await limits.attempt(attempt)).toBeNull();
      await limits.succeeded(attempt);
    }
    for (let failure = 1; failure <= 5; failure += 1) expect(await limits.attempt(attempt)).toBeNull();
    expect(await limits.attempt(attempt)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('when the store fails', () => {
  async function closedDatabase(): Promise<Kysely<RuntimeTables>> {
    const db = openDatabase<RuntimeTables>({ url: ':memory:' });
    await migrateToLatest(db, [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }]);
    await db.destroy();
    return db;
  }

  it('a limiter told to allow lets the call through; one told to refuse answers TEMPORARY_FAILURE', async () => {
    const db = await closedDatabase();
    const open = createRateLimiter({ store: databaseRateLimitStore(db), name: 'tool-calls', points: 1, durationSeconds: 60, whenStoreFails: 'allow', logger });
    expect(await open.consume('k')).toMatchObject({ allowed: true });
    const limits = createSignInLimits({ store: databaseRateLimitStore(db), logger });
    expect(await limits.attempt({ account: 'person@example.org' })).toMatchObject({ code: 'TEMPORARY_FAILURE' });
  });

  it("names, in its log line, the tool call it was counting: the trace id of that call's audit record", async () => {
    const db = await closedDatabase();
    const lines: Array<{ msg?: string; traceId?: string }> = [];
    const written = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const findThing = defineTool({
      name: 'find_thing',
      title: 'Find thing',
      description: 'Finds a thing.',
      effect: 'read',
      input: z.object({}),
      output: z.object({ found: z.boolean() }),
      handler: async () => ({ ok: true, data: { found: true } }),
    });
    const records: AuditEvidence[] = [];
    const pipeline = createInvocationPipeline({
      catalog: defineCatalog([findThing]),
      stateVersionOf: async () => 0,
      audit: { record: async (record) => void records.push(record) },
      logger: written,
      rateLimit: {
        limiter: createRateLimiter({
          store: databaseRateLimitStore(db),
          name: 'tool-calls',
          points: 5,
          durationSeconds: 60,
          whenStoreFails: 'allow',
          logger: written,
        }),
      },
    });
    const principal = { id: 'internal-1', kind: 'session', ref: 'p-1' } as const;
    for (let call = 0; call < 2; call += 1)
      expect(await pipeline.invoke({ tool: 'find_thing', input: {}, principal, surface: 'mcp' })).toMatchObject({ ok: true });
    expect(records).toHaveLength(2);
    expect(lines.filter((line) => line.msg === 'rate limit store failed').map((line) => line.traceId)).toEqual(records.map((record) => record.traceId));
  });
});
