/**
 * @module AgentReady Events with OAuth sign-in for MCP clients, served over
 * real HTTP on 127.0.0.1: the listener starts first (with a handler that
 * waits for the app), because the authorization server's issuer must be the
 * listener's own `http://127.0.0.1:<port>`, known only once it listens.
 */
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import type { OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { createEventsApp, type EventsApp } from '../../src/server/create-events-app.ts';
import { createEventsOAuth } from '../../src/server/oauth-consent.ts';
import type { EventsDatabase } from '../../src/store/schema.ts';
import { listenOnLoopback } from '@agentready/testing';

/** A listening Events site with OAuth. */
export type OAuthEventsSite = {
  /** Origin without a trailing slash, `http://127.0.0.1:<port>` (`https://…` behind a TLS proxy): the issuer, the site's public URL. */
  url: string;
  /** Where the site listens, `http://127.0.0.1:<port>`: the same as `url` unless behind a TLS proxy. */
  listenerUrl: string;
  /** `<url>/mcp`: the one resource its tokens are for. */
  mcpUrl: string;
  oauth: OAuthAuthorizationServer;
  /** Stops the MCP endpoint and the listener (the database stays open: the test owns it). */
  close(): Promise<void>;
};

/**
 * Serves `createEventsApp({ db, now, logger, oauth: await createEventsOAuth(db, url, logger) })`
 * on a free port of 127.0.0.1, with the real clock (the OAuth library keeps its own).
 *
 * @param options.behindTlsProxy the site's public URL (SITE_URL, the issuer) is
 *   the listener's address with `https`, as behind a proxy that terminates TLS;
 *   requests still reach the listener over plain http.
 * @throws the listener's or the authorization server's error (the listener is closed then).
 */
export async function startOAuthEventsSite(db: Kysely<EventsDatabase>, options: { behindTlsProxy?: boolean } = {}): Promise<OAuthEventsSite> {
  const logger = pino({ level: 'silent' });
  let app: EventsApp | undefined;
  // @hono/node-server hands the handler Node's request and response as its second argument (HttpBindings), which OAuth needs.
  const listener = await listenOnLoopback((request: Request, env?: unknown) => (app ? app.fetch(request, env) : new Response('Starting', { status: 503 })));
  try {
    const siteUrl = options.behindTlsProxy ? listener.url.replace(/^http:/, 'https:') : listener.url;
    const oauth = await createEventsOAuth(db, siteUrl, logger);
    app = createEventsApp({ db, now: () => new Date(), logger, oauth, ...(options.behindTlsProxy && { mcp: { siteUrl } }) });
    const started = app;
    return {
      url: siteUrl,
      listenerUrl: listener.url,
      mcpUrl: oauth.resource,
      oauth,
      async close() {
        await started.closeMcp();
        await listener.close();
      },
    };
  } catch (error) {
    await listener.close();
    throw error;
  }
}
