/**
 * The text content of MCP results, read as a model that sees only the text
 * would: every fact of `structuredContent.data`, every next step of
 * `guidance` (tools, target, where the person finishes), and every choice of
 * a SELECTION_REQUIRED, however many. The official client over real HTTP, on
 * SQLite and PostgreSQL.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, storeDialects } from './support/events-database.ts';
import { serveOnDialect, type DialectServer } from './support/dialect-server.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const META_KEY = 'agentready/untrustedContent';
const PAID_EVENT = 'evt-prompt-injection-defense';
const FREE_EVENT = 'evt-webmcp-intro';

type Envelope = {
  ok: boolean;
  data?: Record<string, unknown>;
  guidance?: { availableActions: string[]; currentTarget?: { kind: string; id: string }; confirmationUrl?: string };
  candidates?: Array<{ id: string; label: string }>;
};

const dialects = await storeDialects('the MCP result text tests');

/**
 * Every string and number in `data`, with how the text must show it: a string
 * in a field the result's `_meta` names as third-party text as a JSON string
 * literal, anything else as it is. Booleans and `status` are said in words.
 */
function factsOf(value: unknown, path: string, untrusted: ReadonlySet<string>): Array<{ path: string; shown: string }> {
  if (typeof value === 'number') return [{ path, shown: String(value) }];
  if (typeof value === 'string') return [{ path, shown: untrusted.has(path.replace(/\[\d+\]/g, '[]')) ? JSON.stringify(value) : value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => factsOf(item, `${path}[${index}]`, untrusted));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .filter(([key]) => key !== 'status')
      .flatMap(([key, item]) => factsOf(item, `${path}.${key}`, untrusted));
  }
  return [];
}

/** Asserts that the text of `result` states every fact of its data and every next step of its guidance. */
function expectTextCarriesEverything(result: CallToolResult): string {
  const envelope = result.structuredContent as Envelope;
  expect(envelope.ok).toBe(true);
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
  const untrusted = new Set((result._meta?.[META_KEY] as { fields: string[] } | undefined)?.fields ?? []);
  const facts = factsOf(envelope.data, 'data', untrusted);
  expect(facts.length).toBeGreaterThan(0);
  expect(
    facts.filter((fact) => !text.includes(fact.shown)),
    text,
  ).toEqual([]);
  const { availableActions, currentTarget, confirmationUrl } = envelope.guidance!;
  for (const action of availableActions) expect(text).toContain(action);
  if (currentTarget) expect(text).toContain(`${currentTarget.kind} ${currentTarget.id}`);
  if (confirmationUrl) expect(text).toContain(confirmationUrl);
  return text;
}

describe.each(dialects)('what the text of an MCP result says, on $name', (dialect) => {
  const clock = createTestClock();
  let site: DialectServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    site = await serveOnDialect(dialect, clock);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await site?.close();
  });

  /** A new person on the site, and an MCP client acting for them with a token they made. */
  async function personWithAgent(): Promise<{ person: SitePerson; call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult> }> {
    const person = await openSitePerson(site.url);
    const token = await person.createAccessToken('Result text test');
    const client = new Client({ name: 'result-text-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return { person, call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult };
  }

  /** IDs of events open for registration, from the first pages of an unfiltered search. */
  async function openEventIds(call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>): Promise<string[]> {
    const ids: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const found = (await call('search_events', { page })).structuredContent as { data: { events: Array<{ id: string; state: string }> } };
      ids.push(...found.data.events.filter((event) => event.state === 'open').map((event) => event.id));
    }
    return ids;
  }

  it('states every fact of each success and every next step it offers', async () => {
    const { person, call } = await personWithAgent();

    const firstPage = expectTextCarriesEverything(await call('search_events', {}));
    expect(firstPage).toContain('page 2');
    expectTextCarriesEverything(await call('search_events', { page: 2 }));
    expectTextCarriesEverything(await call('search_events', { keyword: 'WebMCP' }));

    const paid = expectTextCarriesEverything(await call('get_event_details', { event_id: PAID_EVENT }));
    expect(paid).toContain('Not saved by this person, this person is not registered.');
    expectTextCarriesEverything(await call('get_event_details', { event_id: FREE_EVENT }));

    expectTextCarriesEverything(await call('save_event', { event_id: FREE_EVENT }));
    expectTextCarriesEverything(await call('save_event', { event_id: FREE_EVENT }));
    expectTextCarriesEverything(await call('prepare_event_registration', { event_id: FREE_EVENT, name: 'Lin Mei' }));

    const registrationId = await person.register(FREE_EVENT, 'Lin Mei', 'lin.mei@example.org');
    const registered = expectTextCarriesEverything(await call('get_event_details', { event_id: FREE_EVENT }));
    expect(registered).toContain('Saved by this person, this person is registered.');
    const cancellation = expectTextCarriesEverything(await call('prepare_registration_cancellation', {}));
    expect(cancellation).toContain(`registration ${registrationId}`);
    expect(cancellation).toContain(`[${FREE_EVENT}]`);
  });

  it('lists every choice of a SELECTION_REQUIRED, 12 or 14 of them, with how many there are', async () => {
    const { person, call } = await personWithAgent();
    const open = await openEventIds(call);
    expect(open.length).toBeGreaterThanOrEqual(14);

    for (const eventId of open.slice(0, 12)) await person.register(eventId, 'Lin Mei', 'lin.mei@example.org');
    for (const [wanted, eventIds] of [
      [12, []],
      [14, open.slice(12, 14)],
    ] as const) {
      for (const eventId of eventIds) await person.register(eventId, 'Lin Mei', 'lin.mei@example.org');
      const ambiguous = await call('prepare_registration_cancellation', {});
      const { candidates } = ambiguous.structuredContent as Envelope;
      expect(candidates).toHaveLength(wanted);
      const text = ambiguous.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
      expect(text).toContain(`Choices (${wanted}): `);
      for (const candidate of candidates!) expect(text).toContain(`${candidate.id} (${JSON.stringify(candidate.label)})`);
    }
  });
});
