/**
 * @module Starts GiftGenius for a test over real HTTP on 127.0.0.1: a fresh
 * SQLite file in a temp folder or a PostgreSQL schema of its own, migrated;
 * the payment provider stand-in on a port of its own; the app with its OAuth
 * authorization server, whose issuer is the listener's own address (so the
 * listener starts first, with a handler that waits for the app).
 */
import type { Kysely } from 'kysely';
import { pino, type Logger } from 'pino';
import { createAccount, type IdentityTables } from '@agentready/identity';
import { listenOnLoopback, openMigratedTestDatabase, type MigratedTestDatabase } from '@agentready/testing';
import { createProviderClient } from '../../src/provider/provider-client.ts';
import { startProviderStandIn, type RunningProviderStandIn } from '../../src/provider/provider-listener.ts';
import { createGiftGeniusApp, type GiftGeniusApp, type GiftGeniusAppOptions } from '../../src/server/create-giftgenius-app.ts';
import { createGiftGeniusOAuth } from '../../src/server/giftgenius-oauth.ts';
import { readWidgetDocument } from '../../src/server/widget-document.ts';
import { GIFTGENIUS_MIGRATION_SETS } from '../../src/store/prepare-database.ts';
import type { GiftGeniusDatabase } from '../../src/store/schema.ts';

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The dialects the tests run on. */
export const DIALECTS = ['sqlite', 'postgres'] as const;

/** The stand-in's secret key in tests. */
export const TEST_PROVIDER_KEY = 'sk_test_giftgenius_tests';

/** A running test site and its payment provider stand-in. */
export type GiftGeniusSite = {
  /** Origin without a trailing slash: the OAuth issuer, the site's public URL (`https://…` behind a TLS proxy). */
  url: string;
  /** Where the site listens, `http://127.0.0.1:<port>`: the same as `url` unless behind a TLS proxy. */
  listenerUrl: string;
  /** `<url>/mcp`. */
  mcpUrl: string;
  db: Kysely<GiftGeniusDatabase>;
  /** The database's URL, for the site's commands (`DATABASE_URL`). */
  databaseUrl: string;
  app: GiftGeniusApp;
  /** The stand-in: `url` and `standIn` (switches, sessions, reset) in this process. */
  provider: RunningProviderStandIn;
  /** Sets the stand-in's switches over its HTTP API (`PUT /_stand-in/switches`), as an operator would. */
  switchProvider(switches: Record<string, unknown>): Promise<void>;
  /** Calls a stand-in control route (`POST /_stand-in/…`) with a JSON body. */
  controlProvider(path: string, body?: unknown): Promise<unknown>;
  /** Every checkout session the stand-in has created. */
  providerSessions(): Promise<Array<{ id: string; amount_total: number; client_reference_id: string | null }>>;
  /** Creates an account for the test to connect as. */
  addPerson(email: string): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
};

/** Options of {@link startGiftGeniusSite}: the dialect and further app options. */
export type StartGiftGeniusSiteOptions = {
  dialect: 'sqlite' | 'postgres';
  now?: () => Date;
  app?: Partial<Omit<GiftGeniusAppOptions, 'db' | 'now' | 'logger' | 'oauth'>>;
  /** The provider client's timeouts (ms); short ones make slowness tests quick. */
  providerTimeouts?: { catalogTimeoutMs?: number; checkoutTimeoutMs?: number };
  /** The site's public URL (SITE_URL, the issuer) is the listener's address with `https`, as behind a proxy that terminates TLS; requests still reach the listener over plain http. */
  behindTlsProxy?: boolean;
  /** Where the site logs. Default: a silent logger. */
  logger?: Logger;
};

/**
 * Prepares a database, starts the stand-in, and serves the app with OAuth on 127.0.0.1, port 0.
 *
 * @throws the database's, the stand-in's or the listener's error (nothing is left running then).
 */
export async function startGiftGeniusSite(options: StartGiftGeniusSiteOptions): Promise<GiftGeniusSite> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? pino({ level: 'silent' });
  const database = await openTestDatabase(options.dialect);
  const closers: Array<() => Promise<unknown>> = [() => database.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const provider = await startProviderStandIn({ port: 0, secretKey: TEST_PROVIDER_KEY });
    closers.push(() => provider.close());
    let app: GiftGeniusApp | undefined;
    // @hono/node-server hands the handler Node's request and response (HttpBindings), which OAuth needs.
    const listener = await listenOnLoopback((request: Request, env?: unknown) => (app ? app.fetch(request, env) : new Response('Starting', { status: 503 })));
    closers.push(() => listener.close());
    const siteUrl = options.behindTlsProxy ? listener.url.replace(/^http:/, 'https:') : listener.url;
    const oauth = await createGiftGeniusOAuth(database.db, siteUrl, logger);
    app = createGiftGeniusApp({
      shop: createProviderClient({ baseUrl: provider.url, secretKey: TEST_PROVIDER_KEY, ...options.providerTimeouts }),
      widget: { html: () => readWidgetDocument(), imageOrigins: [provider.url] },
      // Every test signs in from 127.0.0.1, the refused attempts of a whole file too: the per-address limit is raised so that only tests of the limit meet it.
      signInLimits: { perAddress: { points: 500, durationSeconds: 900 } },
      ...(options.behindTlsProxy && { siteUrl }),
      ...options.app,
      db: database.db,
      now,
      logger,
      oauth,
    });
    const started = app;
    closers.push(() => started.closeMcp());
    return siteOf({ url: siteUrl, listenerUrl: listener.url, db: database.db, databaseUrl: database.url, app: started, provider, now, close: closeAll });
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function siteOf(parts: {
  url: string;
  listenerUrl: string;
  db: Kysely<GiftGeniusDatabase>;
  databaseUrl: string;
  app: GiftGeniusApp;
  provider: RunningProviderStandIn;
  now: () => Date;
  close(): Promise<void>;
}): GiftGeniusSite {
  const { provider } = parts;
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${provider.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_PROVIDER_KEY}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    url: parts.url,
    listenerUrl: parts.listenerUrl,
    mcpUrl: `${parts.url}/mcp`,
    db: parts.db,
    databaseUrl: parts.databaseUrl,
    app: parts.app,
    provider,
    async switchProvider(switches) {
      await control('PUT', '/_stand-in/switches', switches);
    },
    controlProvider: (path, body) => control('POST', `/_stand-in/${path.replace(/^\//, '')}`, body ?? {}),
    async providerSessions() {
      const listed = (await control('GET', '/_stand-in/sessions')) as { data: Array<{ id: string; amount_total: number; client_reference_id: string | null }> };
      return listed.data;
    },
    async addPerson(email) {
      const password = `password-of-${email}`;
      const created = await createAccount({ db: parts.db as unknown as Kysely<IdentityTables>, now: parts.now }, { email, password });
      if (!created.ok) throw new Error(created.message);
      return { email, password };
    },
    close: parts.close,
  };
}

/** A fresh migrated database of the dialect, and how to remove it (@agentready/testing, `openMigratedTestDatabase`). */
export function openTestDatabase(dialect: 'sqlite' | 'postgres'): Promise<MigratedTestDatabase<GiftGeniusDatabase>> {
  return openMigratedTestDatabase<GiftGeniusDatabase>({
    dialect,
    name: 'giftgenius',
    migrationSets: GIFTGENIUS_MIGRATION_SETS,
    postgresUrl: POSTGRES_TEST_URL,
  });
}
