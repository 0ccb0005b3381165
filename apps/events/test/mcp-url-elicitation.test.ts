/**
 * The prepare tools over MCP bring the person to the site's confirmation page
 * through their client (URL-mode elicitation), through the official client
 * (`@modelcontextprotocol/client`) against a real server: over Streamable HTTP
 * for protocol 2026-07-28 and over stdio (`agentready-events mcp`) for
 * 2025-11-25 and 2026-07-28. The client "opens" the page by handing it to the
 * test, which then acts as the person, signed in to the same account over
 * HTTP: only their confirmation and commit register anyone. Clients that did
 * not declare URL elicitation, and 2025 clients over stateless HTTP (whose
 * per-request server cannot send them a request), get the result with
 * `confirmationUrl` as before.
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientCapabilities, type ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { bodyText } from './support/served-html.ts';
import { openSitePerson, type JsonObject, type SitePerson } from './support/site-person.ts';
import { expectNothingLeaked } from './support/leak-scan.ts';
import { EVENTS_BIN } from './support/events-command.ts';

const ATTENDEE = { name: 'Ada Lovelace', email: 'ada.lovelace@example.org' };
const PAGE_META = 'agentready/confirmationPage';

type Transport = 'http' | 'stdio';
type Era = 'legacy' | 'modern';
const URL_ELICITATION: ClientCapabilities = { elicitation: { url: {} } };

/** What the client was asked to open, and how many registrations the person had at that moment. */
type Asked = { params: Record<string, unknown>; registrationsThen: number };

type AgentOptions = {
  transport: Transport;
  era: Era;
  person: SitePerson;
  token: string;
  /** What the client declares; default none. */
  capabilities?: ClientCapabilities;
  /** How the client answers a request to open a page (throws when 'fail'). Default: accept. */
  answer?: ElicitResult['action'] | 'fail';
  /** Over HTTP: rewrites the `requestState` a retry echoes, as a hostile client could. */
  rewriteState?: (state: string) => string;
};

type Agent = { client: Client; asked: Asked[]; echoedStates: string[] };

let server: EventsServer;
const openClients: Client[] = [];
/** Everything the server sent (and what its signed states carry, decoded), for the leak scan. */
const received: Array<Promise<string>> = [];

beforeAll(async () => {
  server = await startEventsServer();
});

afterAll(async () => {
  await Promise.all(openClients.map((client) => client.close()));
  await server?.close();
  expectNothingLeaked((await Promise.all(received)).join('\n'));
});

/** The JSON a signed state carries, readable by the client (signed, not encrypted): the SDK's `v1.<body>.<mac>`. */
function stateContent(state: string): JsonObject {
  const body = state.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JsonObject;
}

/** A connected agent acting for `person` with their access token, answering requests to open a page as told. */
async function agent(options: AgentOptions): Promise<Agent> {
  const asked: Asked[] = [];
  const echoedStates: string[] = [];
  const client = new Client(
    { name: 'elicitation-test', version: '1.0.0' },
    {
      ...(options.era === 'modern' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      ...(options.capabilities !== undefined && { capabilities: options.capabilities }),
    },
  );
  if (options.capabilities?.elicitation !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push({ params: request.params as Record<string, unknown>, registrationsThen: (await options.person.registrations()).length });
      if (options.answer === 'fail') throw new Error('The client could not show the request.');
      return { action: options.answer ?? 'accept' };
    });
  }
  const transport =
    options.transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${options.token}` } },
          fetch: (input, init) => sendObserved(input, init, echoedStates, options.rewriteState),
        })
      : new StdioClientTransport({
          command: process.execPath,
          args: [EVENTS_BIN, 'mcp'],
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: server.databaseUrl, SITE_URL: server.url, AGENTREADY_EVENTS_TOKEN: options.token },
          stderr: 'pipe',
        });
  await client.connect(transport);
  openClients.push(client);
  return { client, asked, echoedStates };
}

/** Sends one HTTP request of the client, noting (and maybe rewriting) the `requestState` it echoes, and keeps the answer for the leak scan. */
async function sendObserved(
  input: string | URL | Request,
  init: RequestInit | undefined,
  echoedStates: string[],
  rewrite?: (state: string) => string,
): Promise<Response> {
  let sent = init;
  if (typeof init?.body === 'string') {
    const message = JSON.parse(init.body) as { params?: { requestState?: unknown } };
    const state = message.params?.requestState;
    if (typeof state === 'string') {
      echoedStates.push(state);
      received.push(Promise.resolve(JSON.stringify(stateContent(state))));
      if (rewrite) sent = { ...init, body: JSON.stringify({ ...message, params: { ...message.params, requestState: rewrite(state) } }) };
    }
  }
  const response = await fetch(input, sent);
  received.push(response.clone().text());
  return response;
}

type Answer = {
  envelope: JsonObject & { ok: boolean; data: JsonObject; guidance: { requiresHumanConfirmation: boolean; confirmationUrl?: string } };
  text: string;
  meta: JsonObject | undefined;
};

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  received.push(Promise.resolve(JSON.stringify(result)));
  const text = result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join(' ');
  return { envelope: result.structuredContent as Answer['envelope'], text, meta: result._meta as JsonObject | undefined };
}

/** A new person, signed in, with an access token for their agent; and that token's public ID (the audit's principal_ref). */
async function personWithToken(label: string): Promise<{ person: SitePerson; token: string; tokenId: string }> {
  const person = await openSitePerson(server.url);
  const token = await person.createAccessToken(label);
  const [listed] = (await person.call('GET', '/api/access-tokens')).body['accessTokens'] as Array<{ id: string }>;
  return { person, token, tokenId: listed!.id };
}

/** How many times a tool ran for this token, by the audit trail. */
async function runsOf(tool: string, tokenId: string): Promise<number> {
  const rows = await server.db
    .selectFrom('agentready_audit_record')
    .select('outcome_code')
    .where('tool', '=', tool)
    .where('principal_ref', '=', tokenId)
    .execute();
  return rows.length;
}

/**
 * The person at the page the client opened: signed in to the same account,
 * they see the draft the agent prepared, confirm the version shown (their
 * click: session and CSRF) and register under an idempotency key.
 */
async function personRegistersAt(person: SitePerson, pageUrl: string, eventId: string): Promise<string> {
  const page = await fetch(pageUrl, { headers: { cookie: person.cookie } });
  expect(page.status).toBe(200);
  const shown = bodyText(await page.text());
  const draft = (await person.call('GET', `/api/events/${eventId}/registration-draft`)).body['draft'] as {
    id: string;
    version: number;
    name: string;
    email: string;
  };
  expect(shown).toContain(`(Draft version ${draft.version}.)`);
  const confirmed = await person.call('POST', '/api/confirmations', {
    action: 'register',
    event_id: eventId,
    name: draft.name,
    email: draft.email,
    draft_id: draft.id,
    draft_version: draft.version,
  });
  expect(confirmed.status).toBe(201);
  const body = { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] };
  const registered = await person.call('POST', '/api/registrations', body, { 'idempotency-key': randomUUID() });
  expect(registered.status).toBe(201);
  return (registered.body['registration'] as { id: string }).id;
}

const ASKING: ReadonlyArray<[Transport, Era, string]> = [
  ['http', 'modern', 'evt-webmcp-intro'],
  ['stdio', 'legacy', 'evt-ai-agents-meetup-taipei'],
  ['stdio', 'modern', 'evt-prompt-injection-defense'],
];

describe.each(ASKING)('a client that declared URL elicitation, over %s (%s era)', (transport, era, eventId) => {
  it("is asked to open exactly the event's register page; the call registers no one; the person confirms and registers there", async () => {
    const { person, token, tokenId } = await personWithToken(`URL elicitation ${transport} ${era}`);
    const { client, asked } = await agent({ transport, era, person, token, capabilities: URL_ELICITATION });
    const registerPage = `${server.url}/events/${eventId}/register`;

    const prepared = await call(client, 'prepare_event_registration', { event_id: eventId, ...ATTENDEE });

    // The envelope is the prepare's, as any client gets it; the text and _meta add what the person answered.
    expect(prepared.envelope).toMatchObject({
      ok: true,
      data: { event: { id: eventId }, form: { name: ATTENDEE.name, emailProvided: true }, status: 'awaiting_person' },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: registerPage },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toMatchObject({ mode: 'url', url: registerPage });
    // 2025-11-25 names each URL elicitation; 2026-07-28 has no such field.
    expect(typeof asked[0]!.params['elicitationId']).toBe(era === 'legacy' ? 'string' : 'undefined');
    const message = asked[0]!.params['message'] as string;
    expect(message).toContain('AgentReady Events');
    expect(message).toContain('Prepare a registration');
    expect(message).not.toMatch(/https?:/);
    expect(asked[0]!.registrationsThen).toBe(0);

    expect(prepared.text).toContain(`the person must finish at ${registerPage}.`);
    expect(prepared.text).toContain('The person accepted opening the confirmation page from their client');
    expect(prepared.meta?.[PAGE_META]).toEqual({ url: registerPage, answer: 'accept' });
    // The tool ran once (on 2026-07-28 the client's retry was answered from the signed state), and nobody is registered.
    expect(await runsOf('prepare_event_registration', tokenId)).toBe(1);
    expect(await person.registrations()).toEqual([]);

    const registrationId = await personRegistersAt(person, asked[0]!.params['url'] as string, eventId);
    expect((await person.registrations()).map((registration) => [registration.id, registration.event.id])).toEqual([[registrationId, eventId]]);
  });
});

describe('a client of protocol 2026-07-28 over Streamable HTTP that declared URL elicitation', () => {
  it("is asked to open the cancel dialog's page after prepare_registration_cancellation; only the person's confirmation cancels", async () => {
    const { person, token } = await personWithToken('Cancel by URL elicitation');
    const registrationId = await person.register('evt-prompt-injection-defense', ATTENDEE.name, ATTENDEE.email);
    const { client, asked } = await agent({ transport: 'http', era: 'modern', person, token, capabilities: URL_ELICITATION });

    const prepared = await call(client, 'prepare_registration_cancellation', { registration_id: registrationId });
    const cancelPage = `${server.url}/registrations?cancel=${registrationId}`;
    expect(asked.map((entry) => entry.params['url'])).toEqual([cancelPage]);
    expect(prepared.envelope.guidance.confirmationUrl).toBe(cancelPage);
    expect(prepared.meta?.[PAGE_META]).toEqual({ url: cancelPage, answer: 'accept' });
    expect((await person.registrations()).map((registration) => registration.id)).toEqual([registrationId]);

    const confirmed = await person.call('POST', '/api/confirmations', { action: 'cancel', registration_id: registrationId });
    expect(confirmed.status).toBe(201);
    const draft = confirmed.body['draft'] as { id: string; version: number };
    const body = { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] };
    const cancelled = await person.call('POST', `/api/registrations/${registrationId}/cancel`, body, { 'idempotency-key': randomUUID() });
    expect(cancelled.status).toBe(200);
    expect(await person.registrations()).toEqual([]);
  });

  it('says the person declined when they did not open the page, and answers the same envelope', async () => {
    const { person, token } = await personWithToken('Declined');
    const { client, asked } = await agent({ transport: 'http', era: 'modern', person, token, capabilities: URL_ELICITATION, answer: 'decline' });
    const prepared = await call(client, 'prepare_event_registration', { event_id: 'evt-webmcp-intro', name: ATTENDEE.name });
    const registerPage = `${server.url}/events/evt-webmcp-intro/register`;
    expect(asked).toHaveLength(1);
    expect(prepared.envelope).toMatchObject({ ok: true, guidance: { requiresHumanConfirmation: true, confirmationUrl: registerPage } });
    expect(prepared.text).toContain('The person declined opening the confirmation page from their client: give them the link');
    expect(prepared.meta?.[PAGE_META]).toEqual({ url: registerPage, answer: 'decline' });
    expect(await person.registrations()).toEqual([]);
  });

  it('does not believe a requestState the client changed: the call runs again and answers the real page', async () => {
    const { person, token, tokenId } = await personWithToken('Tampering client');
    const phishing = 'https://attacker.example/events/evt-webmcp-intro/register';
    const { client, asked } = await agent({
      transport: 'http',
      era: 'modern',
      person,
      token,
      capabilities: URL_ELICITATION,
      rewriteState(state) {
        const [prefix, , mac] = state.split('.');
        const sealed = stateContent(state) as { p: { envelope: { guidance: { confirmationUrl: string } } } };
        sealed.p.envelope.guidance.confirmationUrl = phishing;
        return `${prefix}.${Buffer.from(JSON.stringify(sealed)).toString('base64url')}.${mac}`;
      },
    });
    const prepared = await call(client, 'prepare_event_registration', { event_id: 'evt-webmcp-intro', ...ATTENDEE });
    expect(asked).toHaveLength(1);
    expect(prepared.envelope.guidance.confirmationUrl).toBe(`${server.url}/events/evt-webmcp-intro/register`);
    expect(JSON.stringify(prepared)).not.toContain('attacker.example');
    // Not asked again (no loop), and the answer no longer claims what the person did.
    expect(prepared.meta?.[PAGE_META]).toBeUndefined();
    expect(await runsOf('prepare_event_registration', tokenId)).toBe(2);
  });

  it("does not answer one person's signed state to another person's agent, even for the very same call", async () => {
    const ada = await personWithToken("Ada's agent");
    const adaAgent = await agent({ transport: 'http', era: 'modern', person: ada.person, token: ada.token, capabilities: URL_ELICITATION });
    const forAda = await call(adaAgent.client, 'prepare_event_registration', { event_id: 'evt-ai-agents-meetup-taipei', ...ATTENDEE });
    const [adaState] = adaAgent.echoedStates;
    expect(adaState).toBeDefined();

    const other = await personWithToken("Another person's agent");
    const otherAgent = await agent({
      transport: 'http',
      era: 'modern',
      person: other.person,
      token: other.token,
      capabilities: URL_ELICITATION,
      rewriteState: () => adaState!,
    });
    const forOther = await call(otherAgent.client, 'prepare_event_registration', { event_id: 'evt-ai-agents-meetup-taipei', ...ATTENDEE });
    const otherDraft = (await other.person.call('GET', '/api/events/evt-ai-agents-meetup-taipei/registration-draft')).body['draft'] as { id: string };
    expect((forOther.envelope.data['draft'] as { id: string }).id).toBe(otherDraft.id);
    expect((forOther.envelope.data['draft'] as { id: string }).id).not.toBe((forAda.envelope.data['draft'] as { id: string }).id);
    expect(forOther.meta?.[PAGE_META]).toBeUndefined();
    expect(await runsOf('prepare_event_registration', other.tokenId)).toBe(2);
  });
});

describe('over stdio, a 2025-11-25 client whose answer never comes', () => {
  it('still answers the envelope, saying the client gave no answer', async () => {
    const { person, token } = await personWithToken('Failing client');
    const { client, asked } = await agent({ transport: 'stdio', era: 'legacy', person, token, capabilities: URL_ELICITATION, answer: 'fail' });
    const prepared = await call(client, 'prepare_event_registration', { event_id: 'evt-webmcp-intro' });
    expect(asked).toHaveLength(1);
    expect(prepared.envelope).toMatchObject({ ok: true, guidance: { confirmationUrl: `${server.url}/events/evt-webmcp-intro/register` } });
    expect(prepared.text).toContain('gave no answer: give them the link.');
    expect(prepared.meta?.[PAGE_META]).toMatchObject({ answer: 'unanswered' });
  });
});

const FALLBACK: ReadonlyArray<[string, Transport, Era, ClientCapabilities | undefined]> = [
  ['a 2025-11-25 client over stateless HTTP, though it declared URL elicitation', 'http', 'legacy', URL_ELICITATION],
  ['a 2026-07-28 client over HTTP without elicitation', 'http', 'modern', undefined],
  ['a 2026-07-28 client over HTTP with form elicitation only', 'http', 'modern', { elicitation: { form: {} } }],
  ['a 2025-11-25 client over stdio with form elicitation only (an empty elicitation object)', 'stdio', 'legacy', { elicitation: {} }],
  ['a 2026-07-28 client over stdio without elicitation', 'stdio', 'modern', undefined],
];

describe.each(FALLBACK)('%s', (_label, transport, era, capabilities) => {
  it('is asked nothing and gets the result with confirmationUrl, as before', async () => {
    const { person, token, tokenId } = await personWithToken(`Fallback ${transport} ${era}`);
    const { client, asked } = await agent({ transport, era, person, token, ...(capabilities !== undefined && { capabilities }) });
    const registerPage = `${server.url}/events/evt-webmcp-intro/register`;
    const prepared = await call(client, 'prepare_event_registration', { event_id: 'evt-webmcp-intro', ...ATTENDEE });
    expect(asked).toEqual([]);
    expect(prepared.envelope).toMatchObject({ ok: true, guidance: { requiresHumanConfirmation: true, confirmationUrl: registerPage } });
    expect(prepared.text).toMatch(new RegExp(`the person must finish at ${registerPage.replace(/[.?]/g, '\\$&')}\\.$`));
    expect(prepared.text).not.toContain('confirmation page');
    expect(prepared.meta?.[PAGE_META]).toBeUndefined();
    expect(await runsOf('prepare_event_registration', tokenId)).toBe(1);
    expect(await person.registrations()).toEqual([]);
  });
});
