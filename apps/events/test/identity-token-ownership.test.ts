/**
 * @module Access tokens belong to the person, not to a browser (docs/identity.md,
 * "Personal access tokens"): a token made in one browser is listed and revoked
 * in another signed in to the same account, and is then refused over /mcp
 * (official MCP client) and over stdio; a `read` token searches but cannot
 * save, a `prepare` token saves; another account never sees it nor revokes it.
 */
import { Client, SdkHttpError, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newTestEmail } from './support/app-visitor.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { pageFetch, signInFromPage } from './support/page-account.ts';
import { byTestId } from './support/page-selectors.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';
import { EVENTS_BIN, runEventsCommand, type EventsCommandRun } from './support/events-command.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';

type Envelope = { ok: boolean; code?: string; message?: string; nextAction?: string; data?: Record<string, unknown> };

describe('a token belongs to the person', () => {
  let server: EventsServer;
  let browser: Browser;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startEventsServer();
    browser = await launchWebMcpChromium();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** An MCP client over Streamable HTTP with `token` as its bearer. */
  async function mcpClient(token: string): Promise<Client> {
    const client = new Client({ name: 'identity-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Envelope> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return result.structuredContent as Envelope;
  }

  /** A person signed in to `email` on the site's account API, for list checks. */
  async function sitePersonOf(email: string, signUp: boolean): Promise<SitePerson> {
    if (signUp) return openSitePerson(server.url, { email });
    const person = await openSitePerson(server.url, { signUp: false });
    expect((await person.call('POST', '/api/account/sign-in', { email, password: 'a test password' })).status).toBe(200);
    return person;
  }

  it('is made in one browser, listed and revoked in another, then refused over /mcp and stdio; another account can do neither', async () => {
    const email = newTestEmail();
    const laptop = await browser.newContext();
    const phone = await browser.newContext();
    try {
      // On the laptop: sign up and create a token on /connect by clicking.
      const laptopPage = await laptop.newPage();
      await laptopPage.goto(`${server.url}/events`);
      await signInFromPage(laptopPage, 'sign-up', email);
      await laptopPage.goto(`${server.url}/connect`);
      await laptopPage.fill(byTestId('token-label'), 'Desktop agent');
      await laptopPage.click(byTestId('create-token'));
      const token = await laptopPage.locator(byTestId('new-token-value')).inputValue();
      expect(token).toMatch(/^are_pat_/);

      // The agent uses it: it can save for the person (a `prepare` token, the default); a desktop client over stdio holds it too.
      const agent = await mcpClient(token);
      expect(await callTool(agent, 'save_event', { event_id: OPEN_EVENT })).toMatchObject({ ok: true });
      const desktop = await stdioClient(token);
      expect(await callTool(desktop, 'search_events', { keyword: 'WebMCP' })).toMatchObject({ ok: true });

      // Another account sees nothing of it and cannot revoke it.
      const stranger = await sitePersonOf(newTestEmail(), true);
      expect((await stranger.call('GET', '/api/access-tokens')).body['accessTokens']).toEqual([]);
      const phonePage = await phone.newPage();
      await phonePage.goto(`${server.url}/events`);
      await signInFromPage(phonePage, 'sign-in', email);
      await phonePage.goto(`${server.url}/connect`);
      const item = phonePage.locator(byTestId('token-item')).filter({ hasText: 'Desktop agent' });
      await item.waitFor();
      const tokenId = await item.getAttribute('data-token-id');
      const strangerRevoke = await stranger.call('DELETE', `/api/access-tokens/${tokenId}`);
      expect(strangerRevoke.status).toBe(404);
      expect(strangerRevoke.body).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(await callTool(agent, 'search_events', { keyword: 'WebMCP' })).toMatchObject({ ok: true });

      // On the phone, the same account lists it and revokes it.
      await item.locator(byTestId('revoke-button')).click();
      await phonePage.click(byTestId('dialog-confirm-revoke'));
      await phonePage.locator(byTestId('revoke-success')).waitFor();
      await phonePage.locator(byTestId('tokens-empty')).waitFor();
      expect((await pageFetch(laptopPage, 'GET', '/api/access-tokens')).body['accessTokens']).toEqual([]);

      // The next MCP call with it is refused at the door, over HTTP...
      const refused = await mcpClient(token).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SdkHttpError);
      expect(refused).toMatchObject({ data: { status: 401 } });
      const direct = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OTHER_EVENT } } }),
      });
      expect(direct.status).toBe(401);
      // ...over stdio, where the running desktop client's next call is refused...
      expect(await callTool(desktop, 'save_event', { event_id: OTHER_EVENT })).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
      // ...and a new stdio server will not start with it.
      const stdio = await startStdio(token);
      expect(stdio.code).toBe(2);
      expect(stdio.stderr).toContain('AGENTREADY_EVENTS_TOKEN is not a valid access token');
      expect(stdio.stderr).not.toContain(token);
      const saved = await pageFetch(laptopPage, 'GET', '/api/saved');
      expect((saved.body['events'] as Array<{ id: string }>).map((event) => event.id)).toEqual([OPEN_EVENT]);
    } finally {
      await laptop.close();
      await phone.close();
    }
  });

  it('with scope read searches but cannot save (FORBIDDEN with a nextAction, nothing saved); with prepare it saves', async () => {
    const person = await sitePersonOf(newTestEmail(), true);
    const readCreated = await person.call('POST', '/api/access-tokens', { label: 'Reader', scope: 'read' });
    expect(readCreated.status).toBe(201);
    expect(readCreated.body['accessToken']).toMatchObject({ scope: 'read' });
    expect((await person.call('GET', '/api/access-tokens')).body['accessTokens']).toEqual([expect.objectContaining({ label: 'Reader', scope: 'read' })]);
    const unknownScope = await person.call('POST', '/api/access-tokens', { label: 'Admin', scope: 'admin' });
    expect(unknownScope.status).toBe(400);
    expect(unknownScope.body).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'scope' });
    const reader = await mcpClient(readCreated.body['token'] as string);
    const found = await callTool(reader, 'search_events', { keyword: 'WebMCP' });
    expect(found.ok).toBe(true);
    const forbidden = await callTool(reader, 'save_event', { event_id: OPEN_EVENT });
    expect(forbidden).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(forbidden.nextAction).toEqual(expect.any(String));
    expect(forbidden.nextAction!.length).toBeGreaterThan(0);
    expect(await person.savedEventIds()).toEqual([]);
    expect(await callTool(reader, 'prepare_event_registration', { event_id: OPEN_EVENT })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await person.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`)).body['draft']).toBeNull();

    const preparer = await mcpClient(await person.createAccessToken('Preparer'));
    expect(await callTool(preparer, 'save_event', { event_id: OPEN_EVENT })).toMatchObject({ ok: true });
    expect(await person.savedEventIds()).toEqual([OPEN_EVENT]);
  });

  /** A desktop MCP client: `agentready-events mcp` over stdio with the token, on the server's database. */
  async function stdioClient(token: string): Promise<Client> {
    const client = new Client({ name: 'identity-test-desktop', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [EVENTS_BIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: server.databaseUrl, SITE_URL: server.url, AGENTREADY_EVENTS_TOKEN: token },
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    return client;
  }

  /** Starts `agentready-events mcp` with the token on the server's database and waits for it to end. */
  function startStdio(token: string): Promise<EventsCommandRun> {
    return runEventsCommand(['mcp'], { DATABASE_URL: server.databaseUrl, SITE_URL: server.url, AGENTREADY_EVENTS_TOKEN: token });
  }
});
