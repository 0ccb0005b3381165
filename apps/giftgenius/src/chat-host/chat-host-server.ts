/**
 * @module The local chat host's server (`npm run giftgenius:host`): what a
 * chat client such as Claude or ChatGPT does around GiftGenius, without a
 * model, so a person can try the app on their own machine. It signs the
 * person in to GiftGenius over OAuth with the official MCP client, lets the
 * page send the tool calls a model would send (only tools whose visibility
 * includes "model"), serves the widget's document with the CSP its resource
 * declares, and forwards the widget's own calls (only tools whose visibility
 * includes "app"), as MCP Apps hosts must (MCP Apps 2026-01-26,
 * "Visibility", "Host Behavior").
 *
 * One host serves one person: it keeps one connection and its tokens in
 * memory, and listens on loopback. Its page's calls are JSON posts from its
 * own origin (a cross-origin page cannot send them without a CORS preflight,
 * which the host never answers); its form posts check `Origin`.
 */
import { readFile } from 'node:fs/promises';
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';
import { toolsForApp, toolsForModel } from 'agentready/mcp-apps';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { Logger } from 'pino';
import { z } from 'zod';
import { createHostOAuthClient, type HostOAuthClient } from './host-oauth-client.ts';
import { widgetContentSecurityPolicy } from './widget-csp.ts';

/** The `msg` of the log line the host writes once it listens; its `url` field is where a person opens it. */
export const CHAT_HOST_LISTENING = 'the GiftGenius chat host is listening: open its url in a browser';

/** Options of {@link createChatHost}. */
export type ChatHostOptions = {
  /** GiftGenius's origin, e.g. `http://127.0.0.1:3200` (its MCP endpoint is `<siteUrl>/mcp`). */
  siteUrl: string;
  /** The host's own origin, e.g. `http://127.0.0.1:3220` (its OAuth redirect URI is `<hostUrl>/oauth/callback`). */
  hostUrl: string;
  /** The built host page (dist/chat-host/chat-host.html). */
  pageFile: string;
  logger: Logger;
};

/** A running host's routes and its connection to GiftGenius. */
export type ChatHost = {
  /** The host's routes (serve with @hono/node-server). */
  app: Hono;
  /** Closes the connection to GiftGenius. */
  close(): Promise<void>;
};

/** What the page asks the host to call: a tool's name and its arguments, as a model or the widget sends them. */
const toolCallRequest = z.strictObject({
  name: z.string().min(1).max(128),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/** The widget resource's `_meta.ui` fields the host reads. */
type WidgetMeta = { ui?: { csp?: McpUiResourceCsp; resourceUri?: string } };

/**
 * The host's routes:
 * - `GET /`: the host page; `GET /api/host`: whether the person is signed in and the tools offered to the model;
 * - `POST /sign-in` (303 to GiftGenius's authorization page), `GET /oauth/callback`, `POST /sign-out`;
 * - `POST /api/model-call` and `POST /api/app-call`: `{ name, arguments }` → `{ result, view? }` or
 *   `{ error }` with 400 (bad request), 401 (sign in first), 403 (the caller may not call that tool), 502 (GiftGenius did not answer);
 * - `GET /view?uri=ui://…`: the widget's document, with the CSP built from its `_meta.ui.csp`.
 *
 * @throws nothing at creation; the connection to GiftGenius opens at the first call.
 */
export function createChatHost(options: ChatHostOptions): ChatHost {
  const mcpUrl = new URL('/mcp', options.siteUrl);
  const hostOrigin = new URL(options.hostUrl).origin;
  const oauth = createHostOAuthClient(new URL('/oauth/callback', options.hostUrl).href);
  const connection = mcpConnection(mcpUrl, oauth);
  const app = new Hono();

  app.onError((error, c) => {
    options.logger.error({ err: error, path: c.req.path }, 'the chat host could not answer');
    const problem = 'GiftGenius did not answer. Is it running (npm run giftgenius)?';
    // The page's own calls read JSON; a navigation (sign-in, the OAuth callback) gets a page.
    return c.req.path.startsWith('/api/') ? c.json({ error: problem }, 502) : c.html(callbackPage(problem), 502);
  });

  app.get('/', async (c) => c.html(await readFile(options.pageFile, 'utf8'), 200, { 'cache-control': 'no-store' }));

  app.get('/api/host', async (c) => {
    const tools = toolsForModel(await connection.tools());
    return c.json({
      signedIn: oauth.hasTokens(),
      site: options.siteUrl,
      tools: tools.map((tool) => ({ name: tool.name, title: tool.title ?? tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema })),
    });
  });

  app.post('/sign-in', async (c) => {
    if (!fromHostPage(c, hostOrigin)) return c.text('Sign in from the host page.', 403);
    const outcome = await auth(oauth, { serverUrl: mcpUrl });
    const authorizationUrl = oauth.takeAuthorizationUrl();
    if (outcome === 'REDIRECT' && authorizationUrl) return c.redirect(authorizationUrl.href, 303);
    return c.redirect('/', 303);
  });

  app.get('/oauth/callback', async (c) => {
    const error = c.req.query('error');
    if (error !== undefined)
      return c.html(callbackPage(error === 'access_denied' ? 'You chose Deny: the host holds no access.' : `GiftGenius refused: ${error}.`), 400);
    const code = c.req.query('code');
    if (!code || !oauth.acceptsState(c.req.query('state') ?? null)) {
      return c.html(callbackPage('This sign-in was not started by this host, or it was already used. Start again.'), 400);
    }
    const iss = c.req.query('iss');
    try {
      await auth(oauth, { serverUrl: mcpUrl, authorizationCode: code, ...(iss !== undefined && { iss }) });
    } catch (error) {
      options.logger.warn({ err: error }, 'GiftGenius did not exchange the authorization code');
      return c.html(callbackPage('GiftGenius did not accept this sign-in (the code may have expired). Start again.'), 400);
    }
    await connection.reset();
    return c.redirect('/', 303);
  });

  app.post('/sign-out', async (c) => {
    if (!fromHostPage(c, hostOrigin)) return c.text('Sign out from the host page.', 403);
    oauth.forgetTokens();
    await connection.reset();
    return c.redirect('/', 303);
  });

  app.post('/api/model-call', (c) => forwardCall(c, 'model'));
  app.post('/api/app-call', (c) => forwardCall(c, 'app'));

  app.get('/view', async (c) => {
    const uri = c.req.query('uri') ?? '';
    if (!uri.startsWith('ui://')) return c.text('A view is named by its ui:// resource URI.', 400);
    const read = await connection.client().then((client) => client.readResource({ uri }));
    const content = read.contents[0];
    if (content === undefined || !('text' in content)) return c.text('GiftGenius has no view at that address.', 404);
    const csp = (content._meta as WidgetMeta | undefined)?.ui?.csp;
    return c.html(content.text, 200, { 'content-security-policy': widgetContentSecurityPolicy(csp), 'cache-control': 'no-store' });
  });

  /** Forwards `{ name, arguments }` when `caller` may call that tool; the answer names the view to show, if the tool has one. */
  async function forwardCall(c: Context, caller: 'model' | 'app') {
    if (!fromHostPage(c, hostOrigin)) return c.json({ error: 'Only the host page may call tools.' }, 403);
    const parsed = toolCallRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: 'Send { "name": "<tool>", "arguments": { … } } as JSON.' }, 400);
    const tools = await connection.tools();
    const offered = caller === 'model' ? toolsForModel(tools) : toolsForApp(tools);
    const tool = offered.find((candidate) => candidate.name === parsed.data.name);
    if (tool === undefined) {
      const who = caller === 'model' ? 'the model' : 'the widget';
      return c.json({ error: `The host does not let ${who} call ${parsed.data.name}.` }, 403);
    }
    try {
      const client = await connection.client();
      const result = (await client.callTool({ name: tool.name, arguments: parsed.data.arguments })) as CallToolResult;
      const resourceUri = (tool._meta as WidgetMeta | undefined)?.ui?.resourceUri;
      return c.json({ result, tool, ...(caller === 'model' && resourceUri !== undefined && { view: await viewOf(resourceUri) }) });
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        oauth.forgetTokens();
        await connection.reset();
        return c.json({ error: 'Sign in to GiftGenius first: tool calls need your permission.' }, 401);
      }
      throw error;
    }
  }

  /** Where the page loads the view named `resourceUri`, and the CSP the host put on it (told to the view). */
  async function viewOf(resourceUri: string) {
    const read = await (await connection.client()).readResource({ uri: resourceUri });
    const csp = (read.contents[0]?._meta as WidgetMeta | undefined)?.ui?.csp;
    return { url: `/view?uri=${encodeURIComponent(resourceUri)}`, csp };
  }

  return { app, close: () => connection.reset() };
}

/**
 * One MCP connection to GiftGenius, opened at first use with the host's
 * OAuth client (a call without a token is answered 401 there, and the client
 * throws UnauthorizedError), and opened again after a sign-in or sign-out.
 */
function mcpConnection(mcpUrl: URL, oauth: HostOAuthClient) {
  let connected: Promise<Client> | undefined;
  const client = () => {
    connected ??= (async () => {
      const created = new Client({ name: 'giftgenius-local-host', version: '1.0.0' });
      await created.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
      return created;
    })().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    return connected;
  };
  return {
    client,
    async tools(): Promise<Tool[]> {
      return (await (await client()).listTools()).tools;
    },
    async reset() {
      const previous = connected;
      connected = undefined;
      await previous?.then((open) => open.close()).catch(() => undefined);
    },
  };
}

/**
 * Whether a post comes from the host's own page: browsers send `Origin` on
 * every POST, and `Sec-Fetch-Site: same-origin` from the page itself.
 */
function fromHostPage(c: Context, hostOrigin: string): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin === hostOrigin;
  return c.req.header('sec-fetch-site') === 'same-origin';
}

/** The short page the OAuth callback answers when the sign-in did not complete (hono/html escapes `problem`). */
function callbackPage(problem: string) {
  return html`<!doctype html>
    <html lang="en">
      <head><meta charset="utf-8" /><title>Sign-in not completed</title></head>
      <body>
        <main>
          <h1>Sign-in not completed</h1>
          <p role="alert">${problem}</p>
          <p><a href="/">Back to the chat host</a></p>
        </main>
      </body>
    </html>`;
}
