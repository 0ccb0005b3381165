/**
 * @module A tiny site for the OAuth tests: a database (a SQLite file or a
 * PostgreSQL schema of its own) migrated with the runtime's and the OAuth
 * sets, an authorization server for its `/mcp`, a small catalog (one read
 * tool, one prepare tool that says who calls), a consent page that finishes
 * the interaction for one fixed account, all served by Hono on a real
 * listening socket at 127.0.0.1 (client ID metadata documents as the test
 * says: served on loopback in their tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { z } from 'zod';
import { defineCatalog, defineTool } from 'agentready';
import {
  createOAuthAuthorizationServer,
  oauthMigrations,
  oauthRoutes,
  OAUTH_MIGRATION_TABLE,
  OAuthInteractionError,
  type ClientIdMetadataDocumentOptions,
  type OAuthAuthorizationServer,
  type OAuthTables,
} from '../../src/oauth/index.ts';
import { createMcpHttpEndpoint } from 'agentready/mcp';
import { createInvocationPipeline } from 'agentready/runtime';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { withTestSchemaLock } from '@agentready/testing';

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The account the consent page signs in, as the host knows it. */
export const TEST_ACCOUNT = { id: 'account-internal-7', ref: 'acc-river' };

/** The scopes of the test site, as the Events site names them. */
export const TEST_SCOPES = { 'events:read': ['read'], 'events:prepare': ['read', 'prepare', 'write'] } as const;

const lookUp = defineTool({
  name: 'look_up',
  title: 'Look up',
  description: 'Answers who calls, for anyone.',
  effect: 'read',
  input: z.object({}),
  output: z.object({ caller: z.string() }),
  handler: async (_input, { principal }) => ({ ok: true, data: { caller: principal ? 'someone' : 'nobody' } }),
});
const prepareVisit = defineTool({
  name: 'prepare_visit',
  title: 'Prepare a visit',
  description: 'Prepares a visit for the person who calls and says who that is.',
  effect: 'prepare',
  input: z.object({}),
  output: z.object({ account: z.string(), client: z.string(), kind: z.string() }),
  handler: async (_input, { principal }) => ({
    ok: true,
    data: { account: principal?.account?.ref ?? 'none', client: principal?.clientName ?? 'none', kind: principal?.kind ?? 'none' },
  }),
});
const catalog = defineCatalog([lookUp, prepareVisit]);

/** A migrated database the test owns. */
export type OAuthDatabase = { dialect: 'sqlite' | 'postgres'; db: Kysely<OAuthTables>; close(): Promise<void> };

/** A fresh SQLite file, or a fresh PostgreSQL schema, migrated with the runtime's and the OAuth sets. */
export async function openOAuthDatabase(dialect: 'sqlite' | 'postgres'): Promise<OAuthDatabase> {
  const sets = [
    { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
    { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  ];
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'oauth-test-'));
    const db = openDatabase<OAuthTables>({ url: `file:${join(folder, 'site.sqlite')}` });
    await migrateToLatest(db, sets);
    return {
      dialect,
      db,
      close: async () => {
        await db.destroy();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const schema = `oauth_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const admin = (statement: string) =>
    withTestSchemaLock(POSTGRES_TEST_URL, async () => {
      const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    });
  await admin(`create schema ${schema}`);
  const db = openDatabase<OAuthTables>({ url: url.toString() });
  await withTestSchemaLock(POSTGRES_TEST_URL, () => migrateToLatest(db, sets));
  return {
    dialect,
    db,
    close: async () => {
      await db.destroy();
      await admin(`drop schema ${schema} cascade`);
    },
  };
}

/** A listening test site. */
export type OAuthSite = { url: string; mcpUrl: string; oauth: OAuthAuthorizationServer; close(): Promise<void> };

/**
 * Starts a site on `db` at a free port of 127.0.0.1. The consent page at
 * `/oauth/interaction/:uid` lists the requested scopes as ticked checkboxes
 * and an Allow and a Deny button; Allow signs in {@link TEST_ACCOUNT} with
 * the ticked scopes.
 */
export async function startOAuthSite(
  db: Kysely<OAuthTables>,
  options: { clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions } = {},
): Promise<OAuthSite> {
  let app: Hono<{ Bindings: HttpBindings }> | undefined;
  const server = createAdaptorServer({ fetch: (request, env) => app!.fetch(request, env) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const oauth = await createOAuthAuthorizationServer({
    db,
    siteUrl: url,
    scopes: TEST_SCOPES,
    findAccount: async (id) => (id === TEST_ACCOUNT.id ? TEST_ACCOUNT : null),
    resourceName: 'Test site',
    ...(options.clientIdMetadataDocuments !== undefined && { clientIdMetadataDocuments: options.clientIdMetadataDocuments }),
  });
  const pipeline = createInvocationPipeline({
    catalog,
    stateVersionOf: async () => 0,
    audit: { record: async () => undefined },
    logger: pino({ level: 'silent' }),
  });
  const endpoint = createMcpHttpEndpoint({
    serverInfo: { name: 'test-site', version: '1.0.0' },
    catalog,
    pipeline,
    siteUrl: url,
    verifyAccessToken: (token) => oauth.verifyOAuthAccessToken(token),
    resourceMetadataUrl: oauth.resourceMetadataUrl,
  });
  app = hostApp(oauth, (request) => endpoint.fetch(request));
  return {
    url,
    mcpUrl: oauth.resource,
    oauth,
    close: async () => {
      await endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}

function hostApp(oauth: OAuthAuthorizationServer, mcp: (request: Request) => Promise<Response>): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.route('/', oauthRoutes(oauth));
  app.all('/mcp', (c) => mcp(c.req.raw));
  app.get('/oauth/interaction/:uid', async (c) => {
    const interaction = await oauth.readInteraction(c.env.incoming, c.env.outgoing);
    const boxes = interaction.requestedScopes.map((scope) => `<label><input type="checkbox" name="scope" value="${scope}" checked> ${scope}</label>`).join('');
    return c.html(
      `<!doctype html><title>Connect</title><h1>Connect ${escapeHtml(interaction.clientName)}?</h1>` +
        `<form method="post" action="/oauth/interaction/${interaction.uid}/decision">${boxes}` +
        '<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></form>',
    );
  });
  app.post('/oauth/interaction/:uid/decision', async (c) => {
    const form = await c.req.formData();
    const target =
      form.get('decision') === 'allow'
        ? await oauth.approveInteraction(c.env.incoming, c.env.outgoing, { accountId: TEST_ACCOUNT.id, scopes: form.getAll('scope').map(String) })
        : await oauth.denyInteraction(c.env.incoming, c.env.outgoing);
    return c.redirect(target, 303);
  });
  app.onError((error, c) => (error instanceof OAuthInteractionError ? c.text(error.message, 400) : c.text('Something went wrong.', 500)));
  return app;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
