/**
 * @module Two accounts on one site, on SQLite and PostgreSQL, over real HTTP:
 * one account's registrations, drafts (prepared by its agent), saved events
 * and tokens are never visible to the other through REST, page data, the
 * server-rendered pages or the MCP tools. An anonymous visitor's saved events
 * join their account at sign-up and at sign-in, an event saved on both sides
 * staying once.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { serveOnDialect, type DialectServer } from './support/dialect-server.ts';
import { createTestClock, storeDialects } from './support/events-database.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
const THIRD_EVENT = 'evt-rust-microcontrollers-hsinchu';

/** What only the first account holds, as words that would show wherever it leaked. */
const MEI = { tokenLabel: 'Mei private agent', attendee: 'Mei Registrant', draftName: 'Mei Draftname' };

type Envelope = { ok: boolean; code?: string; data?: Record<string, unknown>; candidates?: unknown[] };

const dialects = await storeDialects('the identity isolation tests');

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('two accounts on %s', (_name, dialect) => {
  let site: DialectServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    site = await serveOnDialect(dialect, createTestClock());
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await site?.close();
  });

  async function agentOf(person: SitePerson, label: string): Promise<Client> {
    const token = await person.createAccessToken(label);
    const client = new Client({ name: 'isolation-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ envelope: Envelope; text: string }> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { envelope: result.structuredContent as Envelope, text: JSON.stringify(result) };
  }

  /** A page of the site as a browser gets it with the person's cookie (server-rendered). */
  async function renderedPage(person: SitePerson, path: string): Promise<string> {
    const response = await fetch(`${site.url}${path}`, { headers: { cookie: person.cookie } });
    expect(response.status, path).toBe(200);
    return response.text();
  }

  it("never shows one account's registrations, drafts, saved events or tokens to the other", async () => {
    const mei = await openSitePerson(site.url);
    const ken = await openSitePerson(site.url);
    const meiAgent = await agentOf(mei, MEI.tokenLabel);
    await agentOf(ken, 'Ken agent');

    // Mei saves, registers, and her agent prepares a draft.
    expect((await mei.call('POST', '/api/saved', { event_id: OTHER_EVENT })).status).toBe(200);
    const registrationId = await mei.register(OPEN_EVENT, MEI.attendee, 'mei.registrant@example.com');
    const prepared = await callTool(meiAgent, 'prepare_event_registration', { event_id: THIRD_EVENT, name: MEI.draftName });
    expect(prepared.envelope.ok, prepared.text).toBe(true);
    expect((await mei.call('GET', `/api/events/${THIRD_EVENT}/registration-draft`)).body['draft']).not.toBeNull();

    // REST, as Ken.
    expect(await ken.savedEventIds()).toEqual([]);
    expect(await ken.registrations()).toEqual([]);
    expect((await ken.call('GET', `/api/events/${THIRD_EVENT}/registration-draft`)).body['draft']).toBeNull();
    const kenTokens = (await ken.call('GET', '/api/access-tokens')).body['accessTokens'] as Array<{ label: string }>;
    expect(kenTokens.map((token) => token.label)).toEqual(['Ken agent']);
    expect((await ken.call('POST', `/api/registrations/${registrationId}/cancel`, {})).status).not.toBe(200);
    for (const path of [`/api/events/${OPEN_EVENT}`, `/api/events/${OTHER_EVENT}`]) {
      expect((await ken.call('GET', path)).body, path).toMatchObject({ event: { saved: false, registered: false } });
    }

    // Page data and server-rendered pages, as Ken.
    const pages = ['/saved', '/registrations', '/connect', `/events/${THIRD_EVENT}/register`, `/events/${OPEN_EVENT}`, `/events/${OTHER_EVENT}`];
    for (const path of pages) {
      const data = await ken.call('GET', `/api/page-data?path=${encodeURIComponent(path)}`);
      expect(data.status, path).toBe(200);
      const rendered = await renderedPage(ken, path);
      for (const seen of [JSON.stringify(data.body), rendered]) {
        for (const secret of [MEI.tokenLabel, MEI.attendee, MEI.draftName, registrationId]) expect(seen, `${path} shows ${secret}`).not.toContain(secret);
      }
    }
    expect((await ken.call('GET', '/api/page-data?path=/saved')).body).toMatchObject({ page: { events: [] } });
    expect((await ken.call('GET', '/api/page-data?path=/registrations')).body).toMatchObject({ page: { registrations: [] } });
    expect((await ken.call('GET', `/api/page-data?path=${encodeURIComponent(`/events/${THIRD_EVENT}/register`)}`)).body).toMatchObject({
      page: { draft: null },
    });

    // MCP tools, as Ken's agent: nothing of Mei's, and her registration cannot be touched.
    const kenAgent = await agentOf(ken, 'Ken second agent');
    const details = await callTool(kenAgent, 'get_event_details', { event_id: OPEN_EVENT });
    expect(details.envelope.data).toMatchObject({ event: { saved: false, registered: false } });
    const cancellation = await callTool(kenAgent, 'prepare_registration_cancellation', { registration_id: registrationId });
    expect(cancellation.envelope.ok).toBe(false);
    const anyCancellation = await callTool(kenAgent, 'prepare_registration_cancellation', {});
    expect(anyCancellation.envelope.ok).toBe(false);
    for (const answer of [details, cancellation, anyCancellation]) {
      for (const secret of [MEI.tokenLabel, MEI.attendee, MEI.draftName, registrationId]) expect(answer.text).not.toContain(secret);
    }

    // And Mei still has all of hers.
    expect(await mei.savedEventIds()).toEqual([OTHER_EVENT]);
    expect((await mei.registrations()).map((registration) => registration.id)).toEqual([registrationId]);
  });

  it("joins an anonymous visitor's saved events to the account at sign-up and at sign-in, each event once", async () => {
    const email = newTestEmail();
    const visitor = await openSitePerson(site.url, { signUp: false });
    expect((await visitor.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    const signedUp = await visitor.call('POST', '/api/account/sign-up', { email, password: TEST_PASSWORD });
    expect(signedUp.status).toBe(201);
    // The visitor's cookie is gone with the session it named; the account has the event.
    expect(await visitor.savedEventIds()).toEqual([]);
    expect(await savedIdsOfAccount(email)).toEqual([OPEN_EVENT]);

    // Later, anonymous again in another browser: saves one the account has and one it has not.
    const later = await openSitePerson(site.url, { signUp: false });
    expect((await later.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    expect((await later.call('POST', '/api/saved', { event_id: OTHER_EVENT })).status).toBe(200);
    expect((await later.call('POST', '/api/account/sign-in', { email, password: TEST_PASSWORD })).status).toBe(200);
    const ids = await savedIdsOfAccount(email);
    expect([...ids].sort()).toEqual([OPEN_EVENT, OTHER_EVENT].sort());

    // Another visitor's saved events never join this account.
    const stranger = await openSitePerson(site.url, { signUp: false });
    expect((await stranger.call('POST', '/api/saved', { event_id: THIRD_EVENT })).status).toBe(200);
    expect(await savedIdsOfAccount(email)).not.toContain(THIRD_EVENT);
  });

  /** The saved list of `email`'s account, as a new browser that signs in to it sees it. */
  async function savedIdsOfAccount(email: string): Promise<string[]> {
    const first = await fetch(`${site.url}/api/session`);
    const anonymousCookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrfToken } = (await first.json()) as { csrfToken: string };
    const signedIn = await fetch(`${site.url}/api/account/sign-in`, {
      method: 'POST',
      headers: { cookie: anonymousCookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!)
      .filter((pair) => pair !== 'ar_session=')
      .at(-1)!;
    const saved = await fetch(`${site.url}/api/saved`, { headers: { cookie } });
    return ((await saved.json()) as { events: Array<{ id: string }> }).events.map((event) => event.id);
  }
});
