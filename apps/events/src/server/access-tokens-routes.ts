/**
 * @module `GET/POST /api/access-tokens`, `DELETE /api/access-tokens/:id` and
 * `GET /api/connect-info` (docs/events-api.md, "Personal access tokens"): the
 * session's tokens for MCP clients, and what /connect needs to show how to
 * connect one.
 */
import { Hono } from 'hono';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { parseJsonBody } from './request-input.ts';
import { createAccessTokenBodySchema } from './request-schemas.ts';

/**
 * How a desktop MCP client starts this site's server over stdio: the command,
 * its arguments, and the environment it needs besides the token and SITE_URL
 * (DATABASE_URL when the site is not on the default database; a password in
 * a value is never shown).
 */
export type StdioLaunch = { command: string; args: string[]; env?: Record<string, string> };

/** What /connect may tell about connecting; the app option `connection`. */
export type ConnectionOptions = {
  /** How to start the stdio server from this checkout. Default: none (the page shows a placeholder path). */
  stdio?: StdioLaunch;
};

/**
 * A value as /connect may show it: a URL's password (a PostgreSQL
 * DATABASE_URL's, say, after `user:` or as `?password=`) becomes `<password>`
 * for the person to fill in.
 */
function withoutPassword(value: string): string {
  if (!URL.canParse(value)) return value;
  const parsed = new URL(value);
  const queryPassword = parsed.searchParams.has('password');
  if (parsed.password === '' && !queryPassword) return value;
  if (queryPassword) parsed.searchParams.set('password', 'PASSWORD');
  const search = parsed.search.replace('password=PASSWORD', 'password=<password>');
  const credentials = parsed.username === '' ? '' : `${parsed.username}${parsed.password === '' ? '' : ':<password>'}@`;
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${search}`;
}

/** Host names of this machine: a person reaching the site under one of these runs it from this checkout. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `GET /api/connect-info`: the Streamable HTTP endpoint, and the stdio launch
 * when the server was told it and the site was reached under a loopback name
 * (localhost, 127.0.0.1, [::1]), so a public site never shows its paths.
 */
export type ConnectInfo = { mcpUrl: string; stdio: StdioLaunch | null };

/**
 * Routes under `/api` for personal access tokens. Session and CSRF come from
 * the app's `/api` middleware: a read without a session lists nothing, a
 * change without a session or CSRF token never reaches these handlers.
 *
 * @param connection what `GET /api/connect-info` reports besides the MCP URL.
 * @example app.route('/api', accessTokensRoutes(services, { stdio: { command: 'node', args: [binPath, 'mcp'] } }));
 */
export function accessTokensRoutes(services: EventsServices, connection: ConnectionOptions = {}): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  const describeConnection = connectInfoReader(connection);

  routes.get('/access-tokens', async function listAccessTokens(c) {
    const principal = c.get('principal');
    return c.json({ accessTokens: principal ? await services.listAccessTokens(principal) : [] });
  });

  routes.post('/access-tokens', async function createAccessToken(c) {
    const body = await parseJsonBody(c, createAccessTokenBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const { label, scope } = body.value;
    const result = await services.createAccessToken(requiredSession(c).principal, scope === undefined ? { label } : { label, scope });
    return result.ok ? c.json(result.value, 201) : respondWithFailure(c, result);
  });

  routes.delete('/access-tokens/:id', async function revokeAccessToken(c) {
    const result = await services.revokeAccessToken(requiredSession(c).principal, c.req.param('id'));
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  routes.get('/connect-info', function readConnectInfo(c) {
    return c.json(describeConnection(new URL(c.req.url)));
  });

  return routes;
}

/**
 * What /connect shows for a request to `requested`: the MCP endpoint at the
 * origin it came to, and the stdio launch only under a loopback host name
 * (the checkout's path and database are this machine's business).
 */
export function connectInfoReader(connection: ConnectionOptions = {}): (requested: URL) => ConnectInfo {
  const stdio = connection.stdio
    ? {
        command: connection.stdio.command,
        args: [...connection.stdio.args],
        ...(connection.stdio.env && { env: Object.fromEntries(Object.entries(connection.stdio.env).map(([name, value]) => [name, withoutPassword(value)])) }),
      }
    : null;
  return function describeConnection(requested) {
    return { mcpUrl: `${requested.origin}/mcp`, stdio: LOOPBACK_HOSTNAMES.has(requested.hostname) ? stdio : null };
  };
}
