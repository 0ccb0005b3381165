/**
 * The scopes an application offers for personal access tokens, on SQLite (a
 * temporary file) and PostgreSQL (a schema of its own): an app that offers
 * `submit` gets tokens whose principal may run commit tools; an app that
 * offers the default scopes refuses `submit`, naming what it offers, and
 * stores nothing; a stored scope the app does not offer acts as `read`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAccessToken,
  createAccount,
  IDENTITY_MIGRATION_TABLE,
  identityMigrations,
  listAccessTokens,
  startSession,
  verifyAccessToken,
  DEFAULT_SESSION_LIFETIMES,
  type AccessTokenRules,
  type IdentityContext,
  type IdentityTables,
} from '../src/index.ts';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { createTestSchemaDatabase, requirePostgresForTests } from '@agentready/testing';
import { POSTGRES_TEST_URL } from './support/oauth-site.ts';

type TestDialect = 'sqlite' | 'postgres';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the access token scope tests' });
const DIALECTS: TestDialect[] = runPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

const MIGRATION_SETS = [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
];
const DEFAULT_RULES: AccessTokenRules = { prefix: 'tst_pat_', lifetimeDays: 90, maxPerAccount: 5 };
const SUBMITTING_RULES: AccessTokenRules = { ...DEFAULT_RULES, scopes: ['read', 'prepare', 'submit'] };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated identity database on `dialect` and a person signed in on the site. */
async function personOn(dialect: TestDialect) {
  let db: Kysely<IdentityTables>;
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'token-scopes-'));
    db = openDatabase<IdentityTables>({ url: `file:${join(folder, 'identity.sqlite')}` });
    await migrateToLatest(db, MIGRATION_SETS);
    cleanups.push(async () => {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    });
  } else {
    const test = await createTestSchemaDatabase<IdentityTables>(POSTGRES_TEST_URL, 'token_scopes_test', MIGRATION_SETS);
    db = test.db;
    cleanups.push(() => test.drop());
  }
  const ctx: IdentityContext = { db, now: () => new Date('2026-12-01T09:00:00Z') };
  const account = await createAccount(ctx, { email: 'mei@example.com', password: 'a long enough password' });
  if (!account.ok) throw new Error(account.message);
  const session = await startSession(ctx, DEFAULT_SESSION_LIFETIMES, account.value);
  return { db, ctx, person: session.principal };
}

async function storedTokens(db: Kysely<IdentityTables>): Promise<number> {
  const row = await db
    .selectFrom('agentready_access_token')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe.each(DIALECTS)('access token scopes on %s', (dialect) => {
  it('gives a submit token of an app that offers submit a principal that may run commit tools', async () => {
    const { ctx, person } = await personOn(dialect);
    const created = await createAccessToken(ctx, SUBMITTING_RULES, person, { label: 'Desk agent', scope: 'submit' });
    if (!created.ok) throw new Error(created.message);
    expect(created.value.accessToken.scope).toBe('submit');

    const verified = await verifyAccessToken(ctx, SUBMITTING_RULES, created.value.token);
    expect(verified?.principal).toMatchObject({ kind: 'token', account: { ref: person.account?.ref }, clientName: 'Desk agent' });
    expect(verified?.principal.scope).toEqual(['read', 'prepare', 'write', 'commit']);
    expect((await listAccessTokens(ctx, person)).map((token) => [token.label, token.scope])).toEqual([['Desk agent', 'submit']]);
  });

  it('refuses submit where the app offers only the default scopes, naming them, and stores nothing', async () => {
    const { db, ctx, person } = await personOn(dialect);
    const refused = await createAccessToken(ctx, DEFAULT_RULES, person, { label: 'Desk agent', scope: 'submit' });
    expect(refused).toEqual({ ok: false, code: 'INVALID_INPUT', field: 'scope', message: 'The scope must be "read" or "prepare".' });
    expect(await storedTokens(db)).toBe(0);

    const unknown = await createAccessToken(ctx, SUBMITTING_RULES, person, { label: 'Desk agent', scope: 'admin' });
    expect(unknown).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'scope', message: 'The scope must be "read", "prepare", or "submit".' });
    expect(await storedTokens(db)).toBe(0);
  });

  it('lets a submit token act as read only once its app no longer offers submit', async () => {
    const { ctx, person } = await personOn(dialect);
    const created = await createAccessToken(ctx, SUBMITTING_RULES, person, { label: 'Desk agent', scope: 'submit' });
    if (!created.ok) throw new Error(created.message);
    const verified = await verifyAccessToken(ctx, DEFAULT_RULES, created.value.token);
    expect(verified?.principal.scope).toEqual(['read']);
  });
});
