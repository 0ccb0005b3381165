/**
 * createIdentityOAuthServer and scopeLabelsOf, a site's OAuth server from
 * its scopes named once (effects and words), on a SQLite file and a
 * PostgreSQL schema (an unreachable PostgreSQL fails the file unless
 * AGENTREADY_SKIP_POSTGRES=1): what a client reads in the resource's
 * metadata, what a person reads on the consent page, and a scope map the
 * server cannot use refused.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from '../src/index.ts';
import { createIdentityOAuthServer, OAUTH_MIGRATION_TABLE, oauthMigrations, scopeLabelsOf, type OAuthSiteScopes } from '../src/oauth/index.ts';
import { RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { openMigratedTestDatabase, requirePostgresForTests } from '@agentready/testing';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the identity OAuth server tests' });
const SETS = [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
];
const SCOPES: OAuthSiteScopes = {
  'notes:read': { effects: ['read'], label: 'Read your notes' },
  'notes:write': { effects: ['read', 'prepare', 'write'], label: 'Write notes for you' },
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(['sqlite', 'postgres'] as const)('createIdentityOAuthServer on %s', (dialect) => {
  it.runIf(dialect === 'sqlite' || runPostgres)('serves the site’s one resource under its name, offering its scopes', async () => {
    const database = await openMigratedTestDatabase({ dialect, name: 'identity_oauth', migrationSets: SETS, postgresUrl: POSTGRES_URL });
    cleanups.push(() => database.close());
    const server = await createIdentityOAuthServer({
      db: database.db,
      siteUrl: 'https://notes.example.org',
      scopes: SCOPES,
      resourceName: 'Notes',
      logger: pino({ level: 'silent' }),
    });
    expect(server.issuer).toBe('https://notes.example.org');
    expect(server.protectedResourceMetadata()).toMatchObject({
      resource: 'https://notes.example.org/mcp',
      resource_name: 'Notes',
      scopes_supported: ['notes:read', 'notes:write'],
    });
  });

  it.runIf(dialect === 'sqlite' || runPostgres)('refuses a scope that allows nothing', async () => {
    const database = await openMigratedTestDatabase({ dialect, name: 'identity_oauth', migrationSets: SETS, postgresUrl: POSTGRES_URL });
    cleanups.push(() => database.close());
    const start = createIdentityOAuthServer({
      db: database.db,
      siteUrl: 'https://notes.example.org',
      scopes: { 'notes:none': { effects: [], label: 'Nothing' } },
      resourceName: 'Notes',
      logger: pino({ level: 'silent' }),
    });
    await expect(start).rejects.toThrow(TypeError);
  });
});

describe('scopeLabelsOf', () => {
  it('gives each scope its words for the person', () => {
    expect(scopeLabelsOf(SCOPES)).toEqual({ 'notes:read': 'Read your notes', 'notes:write': 'Write notes for you' });
  });
});
