/**
 * @module Starts Rawdata requests for a test over real HTTP on 127.0.0.1: a
 * fresh SQLite file in a temp folder or a PostgreSQL schema of its own,
 * migrated, with an analyst account (and its profile) the test names; with
 * `oauth`, the site's authorization server too, whose issuer is the
 * listener's own address (so the listener starts first, with a handler that
 * waits for the app).
 */
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { listenOnLoopback, openMigratedTestDatabase, type MigratedTestDatabase } from '@agentready/testing';
import { createRawdataApp, type RawdataApp, type RawdataAppOptions } from '../../src/server/create-rawdata-app.ts';
import { createRawdataOAuth } from '../../src/server/rawdata-oauth.ts';
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
  /** Origin without a trailing slash (with `oauth`, the issuer). */
  url: string;
  /** `<url>/mcp`. */
  mcpUrl: string;
  db: Kysely<RawdataDatabase>;
  /** The database's `DATABASE_URL`, for another process on the same data. */
  databaseUrl: string;
  app: RawdataApp;
  /** Creates an account with a profile (default: clearance classified, Risk Management), for the test to sign in as. */
  addAnalyst(email: string, profile?: Partial<AnalystProfile>): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
};

/** Options of {@link startRawdataSite}: the dialect, further `createRawdataApp` options, and whether OAuth sign-in is on (default off). */
export type StartRawdataSiteOptions = {
  dialect: 'sqlite' | 'postgres';
  now?: () => Date;
  app?: Omit<RawdataAppOptions, 'db' | 'now' | 'logger' | 'oauth'>;
  oauth?: boolean;
};

/**
 * Prepares a database and serves `createRawdataApp` on 127.0.0.1, port 0.
 *
 * @throws the database's or the listener's error (nothing is left running then).
 */
export async function startRawdataSite(options: StartRawdataSiteOptions): Promise<RawdataSite> {
  const now = options.now ?? (() => new Date());
  const logger = pino({ level: 'silent' });
  const database = await openTestDatabase(options.dialect);
  let app: RawdataApp | undefined;
  // @hono/node-server hands the handler Node's request and response (HttpBindings), which OAuth needs.
  const listener = await listenOnLoopback((request: Request, env?: unknown) =>
    app ? app.fetch(request, env) : new Response('Starting', { status: 503 }),
  ).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  try {
    const oauth = options.oauth ? await createRawdataOAuth(database.db, listener.url, logger, now) : undefined;
    app = createRawdataApp({ ...options.app, db: database.db, now, logger, ...(oauth !== undefined && { oauth }) });
  } catch (error) {
    await listener.close();
    await database.close();
    throw error;
  }
  const started = app;
  return {
    url: listener.url,
    mcpUrl: `${listener.url}/mcp`,
    db: database.db,
    databaseUrl: database.url,
    app: started,
    async addAnalyst(email, profile = {}) {
      const password = `password-of-${email}`;
      await saveAnalyst(database.db, now, { email, password, profile: { unit: 'Risk Management', clearance: 'classified', operator: false, ...profile } });
      return { email, password };
    },
    async close() {
      await started.closeMcp();
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
