/**
 * @module Starts Rawdata requests for a test over real HTTP on 127.0.0.1: a
 * fresh SQLite file in a temp folder or a PostgreSQL schema of its own,
 * migrated, with an analyst account (and its profile) the test names.
 */
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { listenOnLoopback, openMigratedTestDatabase, type MigratedTestDatabase } from '@agentready/testing';
import { createRawdataApp, type RawdataApp, type RawdataAppOptions } from '../../src/server/create-rawdata-app.ts';
import { saveAnalyst, type AnalystProfile } from '../../src/store/analyst-accounts.ts';
import { RAWDATA_MIGRATION_SETS } from '../../src/store/prepare-database.ts';
import type { RawdataDatabase } from '../../src/store/schema.ts';
import { connectMcpAgent, type McpAgent } from './mcp-agent.ts';
import { signInPerson, type SitePerson } from './site-person.ts';

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The dialects every journey runs on. */
export const DIALECTS = ['sqlite', 'postgres'] as const;

/** A running test site. */
export type RawdataSite = {
  /** Origin without a trailing slash. */
  url: string;
  db: Kysely<RawdataDatabase>;
  /** The database's `DATABASE_URL`, for another process on the same data. */
  databaseUrl: string;
  app: RawdataApp;
  /** Creates an account with a profile (default: clearance classified, Risk Management), for the test to sign in as. */
  addAnalyst(email: string, profile?: Partial<AnalystProfile>): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
};

/** Options of {@link startRawdataSite}: the dialect and further `createRawdataApp` options. */
export type StartRawdataSiteOptions = { dialect: 'sqlite' | 'postgres'; now?: () => Date; app?: Omit<RawdataAppOptions, 'db' | 'now' | 'logger'> };

/**
 * Prepares a database and serves `createRawdataApp` on 127.0.0.1, port 0.
 *
 * @throws the database's or the listener's error (nothing is left running then).
 */
export async function startRawdataSite(options: StartRawdataSiteOptions): Promise<RawdataSite> {
  const now = options.now ?? (() => new Date());
  const database = await openTestDatabase(options.dialect);
  const app = createRawdataApp({ ...options.app, db: database.db, now, logger: pino({ level: 'silent' }) });
  const listener = await listenOnLoopback(app.fetch).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  return {
    url: listener.url,
    db: database.db,
    databaseUrl: database.url,
    app,
    async addAnalyst(email, profile = {}) {
      const password = `password-of-${email}`;
      await saveAnalyst(database.db, now, { email, password, profile: { unit: 'Risk Management', clearance: 'classified', operator: false, ...profile } });
      return { email, password };
    },
    async close() {
      await app.closeMcp();
      await listener.close();
      await database.close();
    },
  };
}

/** A fresh migrated database of the dialect, and how to remove it (@agentready/testing, `openMigratedTestDatabase`). */
export function openTestDatabase(dialect: 'sqlite' | 'postgres'): Promise<MigratedTestDatabase<RawdataDatabase>> {
  return openMigratedTestDatabase<RawdataDatabase>({ dialect, name: 'rawdata', migrationSets: RAWDATA_MIGRATION_SETS, postgresUrl: POSTGRES_TEST_URL });
}

/** A site with one analyst signed in over HTTP and their agent connected over MCP with a token of `scope`. */
export type AnalystOnSite = { site: RawdataSite; person: SitePerson; agent: McpAgent; token: string; close(): Promise<void> };

/**
 * Starts a site ({@link startRawdataSite}), adds the analyst amy@example.com
 * (classified clearance), signs her in and connects her agent with a new token.
 */
export async function startAnalystOnSite(options: StartRawdataSiteOptions & { scope?: 'read' | 'prepare' | 'submit' }): Promise<AnalystOnSite> {
  const site = await startRawdataSite(options);
  const person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
  const token = await person.createAccessToken(options.scope ?? 'submit');
  const agent = await connectMcpAgent(site.url, token);
  return {
    site,
    person,
    agent,
    token,
    async close() {
      await agent.close();
      await site.close();
    },
  };
}
