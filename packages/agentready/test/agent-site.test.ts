/**
 * A site made with createAgentSite, as its users meet it: an MCP client over
 * Streamable HTTP, the person's browser on the confirmation page (plain HTTP,
 * then Chromium), and an agent in the site's own page through Chromium's
 * WebMCP. A bookshop: a read tool, a write tool with an idempotency key, and
 * an order the person confirms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deeplyNestedArguments, flatArguments, launchWebMcpChromium, timedAnswer, toolCallMessage } from '@agentready/testing';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineToolFor, TRACE_ID_META_KEY } from '../src/contract/index.ts';
import { idempotencyKeySchema } from '../src/runtime/index.ts';
import { createAgentSite, type AgentSite } from '../src/site/index.ts';
import { openDatabase, type RuntimeTables } from '../src/store/index.ts';

type Shop = { orders: string[]; wishes: string[] };
const defineShopTool = defineToolFor<Shop>();
const BOOKS = [
  { id: 'dune', title: 'Dune', author: 'Frank Herbert', priceUsd: 12 },
  { id: 'emma', title: 'Emma', author: 'Jane Austen', priceUsd: 9 },
];

const findBooks = defineShopTool({
  name: 'find_books',
  title: 'Find books',
  effect: 'read',
  description: 'Finds books whose title or author holds the words. Returns each book: id, title, author, price in USD.',
  input: z.object({ words: z.string().min(1).max(100) }),
  output: z.object({ books: z.array(z.object({ id: z.string(), title: z.string(), author: z.string(), priceUsd: z.number() })) }),
  handler: async ({ words }) => ({
    ok: true,
    data: { books: BOOKS.filter((book) => `${book.title} ${book.author}`.toLowerCase().includes(words.toLowerCase())) },
  }),
});
const wishBook = defineShopTool({
  name: 'wish_book',
  title: 'Wish for a book',
  effect: 'write',
  description: "Adds a book to the visitor's wish list; send the same idempotency_key to retry.",
  input: z.object({ book_id: z.enum(['dune', 'emma']), idempotency_key: idempotencyKeySchema }),
  output: z.object({ wishes: z.number().int() }),
  handler: async ({ book_id }, { app }) => {
    app.wishes.push(book_id);
    return { ok: true, data: { wishes: app.wishes.length } };
  },
});
const orderBook = defineShopTool({
  name: 'order_book',
  title: 'Order a book',
  effect: 'commit',
  description: 'Orders one book. The person confirms the order at guidance.confirmationUrl; nothing is ordered before.',
  input: z.object({ book_id: z.enum(['dune', 'emma']) }),
  output: z.object({ orderId: z.string(), title: z.string() }),
  confirm: ({ book_id }) => `Order “${BOOKS.find((book) => book.id === book_id)!.title}” for ${BOOKS.find((book) => book.id === book_id)!.priceUsd} USD.`,
  handler: async ({ book_id }, { app }) => {
    app.orders.push(book_id);
    return { ok: true, data: { orderId: `ord-${app.orders.length}`, title: BOOKS.find((book) => book.id === book_id)!.title } };
  },
});

const shop: Shop = { orders: [], wishes: [] };
let folder: string;
let site: AgentSite;
let siteUrl: string;
let closeServer: () => Promise<void>;
let evidence: Kysely<RuntimeTables>;

/** A page of the shop: the site's own HTML, with the toolkit's script; the site answers everything else. */
const HOME =
  '<!doctype html><html lang="en"><head><title>Bookshop</title><script type="module" src="/agentready/webmcp.js"></script></head><body><h1>Bookshop</h1></body></html>';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'agent-site-'));
  const database = `file:${join(folder, 'shop.sqlite')}`;
  site = createAgentSite({ name: 'Bookshop', tools: [findBooks, wishBook, orderBook], app: shop, database, logger: pino({ level: 'silent' }) });
  const app = new Hono();
  app.get('/', (c) => c.html(HOME));
  app.all('*', (c) => site.fetch(c.req.raw));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  siteUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  closeServer = () => new Promise((resolve) => server.close(() => resolve()));
  // The site answers its first request once it migrated: ask one before reading its tables.
  await site.fetch(new Request(`${siteUrl}/agentready/tools`));
  evidence = openDatabase<RuntimeTables>({ url: database });
});

afterAll(async () => {
  await closeServer();
  await site.close();
  await evidence.destroy();
  rmSync(folder, { recursive: true, force: true });
});

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'test agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${siteUrl}/mcp`)));
  return client;
}

/** A person's browser without a script: a visitor cookie from the first page, then a form post from the site's own origin. */
async function personAt(link: string) {
  const page = await fetch(link);
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  return {
    page,
    html: await page.text(),
    answer: (decision: 'confirm' | 'decline', draftVersion = 1, origin = siteUrl) =>
      fetch(link, {
        method: 'POST',
        headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision, draft_version: String(draftVersion) }),
      }),
  };
}

describe('createAgentSite over MCP', () => {
  it('lists each tool with its output schema and honest annotations: the order as a prepare step, which changes nothing', async () => {
    const client = await mcpClient();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['find_books', 'wish_book', 'order_book']);
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(byName['find_books']).toMatchObject({ readOnlyHint: true });
    expect(byName['order_book']).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    await client.close();
  });

  it('answers a read with every fact in the text, and a write without a principal UNAUTHENTICATED', async () => {
    const client = await mcpClient();
    const found = (await client.callTool({ name: 'find_books', arguments: { words: 'austen' } })) as CallToolResult;
    expect(found.content).toEqual([
      { type: 'text', text: 'Find books: books (1): 1) id "emma", title "Emma", author "Jane Austen", priceUsd 9. No further tool applies.' },
    ]);
    const wished = (await client.callTool({ name: 'wish_book', arguments: { book_id: 'dune', idempotency_key: 'wish-key-0001' } })) as CallToolResult;
    expect(wished.structuredContent).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(shop.wishes).toEqual([]);
    await client.close();
  });

  it('prepares an order without ordering, gives one link per request, and the person’s Confirm orders it once', async () => {
    const client = await mcpClient();
    const prepare = async () => (await client.callTool({ name: 'order_book', arguments: { book_id: 'dune' } })) as CallToolResult;
    const first = await prepare();
    const envelope = first.structuredContent as {
      ok: true;
      data: { status: string; summary: string; draft: { id: string } };
      guidance: { confirmationUrl: string; requiresHumanConfirmation: boolean };
    };
    expect(envelope).toMatchObject({
      ok: true,
      data: { status: 'awaiting_person', summary: 'Order “Dune” for 12 USD.' },
      guidance: { requiresHumanConfirmation: true },
    });
    const link = envelope.guidance.confirmationUrl;
    expect(link).toBe(`${siteUrl}/agentready/confirm/${envelope.data.draft.id}`);
    expect((first.content as Array<{ text: string }>)[0]!.text).toContain(`Nothing is final yet: the person must finish at ${link}.`);
    expect(shop.orders).toEqual([]);
    // The agent asking again (a retry, a second thought) gets the same request, not a second one to confirm.
    expect(((await prepare()).structuredContent as typeof envelope).guidance.confirmationUrl).toBe(link);

    const person = await personAt(link);
    expect(person.page.status).toBe(200);
    expect(person.page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(person.html).toContain('Order “Dune” for 12 USD.');
    // A form on another site cannot confirm for the person.
    expect((await person.answer('confirm', 1, 'http://elsewhere.example')).status).toBe(403);
    expect(shop.orders).toEqual([]);

    const done = await person.answer('confirm');
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Order a book: orderId &quot;ord-1&quot;, title &quot;Dune&quot;.');
    expect(shop.orders).toEqual(['dune']);
    // A second click, or a second browser with the link: nothing more is ordered.
    expect((await person.answer('confirm')).status).toBe(404);
    expect((await (await personAt(link)).answer('confirm')).status).toBe(404);
    expect(shop.orders).toEqual(['dune']);

    const records = await evidence
      .selectFrom('agentready_audit_record')
      .select(['tool', 'surface', 'outcome_code', 'draft_id'])
      .where('draft_id', '=', envelope.data.draft.id)
      .orderBy('occurred_at')
      .execute();
    expect(records.map((record) => [record.tool, record.surface, record.outcome_code])).toEqual([
      ['order_book', 'mcp', 'SUCCESS'],
      ['order_book', 'mcp', 'SUCCESS'],
      ['confirm_order_book', 'ui', 'SUCCESS'],
    ]);
    await client.close();
  });

  it('does nothing when the person declines, and the link then confirms nothing', async () => {
    const client = await mcpClient();
    const prepared = (await client.callTool({ name: 'order_book', arguments: { book_id: 'emma' } })) as CallToolResult;
    const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
    const person = await personAt(link);
    const declined = await person.answer('decline');
    expect(await declined.text()).toContain('Nothing was done.');
    expect((await person.answer('confirm')).status).toBe(404);
    expect(shop.orders).toEqual(['dune']);
    await client.close();
  });

  it('confirms only on the Confirm button: a post naming no decision, or another one, does nothing', async () => {
    const client = await mcpClient();
    const prepared = (await client.callTool({ name: 'order_book', arguments: { book_id: 'emma' } })) as CallToolResult;
    const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
    const page = await fetch(link);
    const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
    const posts: Array<Record<string, string>> = [
      { draft_version: '1' },
      { decision: '', draft_version: '1' },
      { decision: 'Decline', draft_version: '1' },
      { decision: 'maybe', draft_version: '1' },
    ];
    for (const body of posts) {
      const answer = await fetch(link, {
        method: 'POST',
        headers: { origin: siteUrl, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('Nothing was done: press Confirm or Decline');
    }
    expect(shop.orders).toEqual(['dune']);
    // The request still waits for the person.
    expect((await fetch(link)).status).toBe(200);
    await client.close();
  });

  it('refuses an MCP request body over 64 KiB before the MCP server reads it', async () => {
    const response = await fetch(`${siteUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_books', arguments: { words: 'x'.repeat(70_000) } } }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { message: 'The request body is larger than 64 KiB.' } });
  });

  it('refuses a version the person did not see, and orders nothing', async () => {
    const client = await mcpClient();
    const prepared = (await client.callTool({ name: 'order_book', arguments: { book_id: 'emma' } })) as CallToolResult;
    const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
    const refused = await (await personAt(link)).answer('confirm', 7);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('The request changed after you opened it.');
    expect(shop.orders).toEqual(['dune']);
    await client.close();
  });
});

/** The tool and outcome of the audit record whose trace id `result` names in `_meta` (TRACE_ID_META_KEY). */
async function recordNamedBy(result: unknown): Promise<{ tool: string; outcome_code: string } | undefined> {
  const traceId = (result as { _meta?: Record<string, unknown> })._meta?.[TRACE_ID_META_KEY];
  expect(traceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return evidence
    .selectFrom('agentready_audit_record')
    .select(['tool', 'outcome_code'])
    .where('trace_id', '=', traceId as string)
    .executeTakeFirst();
}

describe('createAgentSite’s tool route for its pages', () => {
  it('answers each call with its trace id in _meta, the id of its audit record, found or not', async () => {
    const post = (name: string, input: unknown) =>
      fetch(`${siteUrl}/agentready/tools/${name}`, {
        method: 'POST',
        headers: { origin: siteUrl, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
    const found = await post('find_books', { words: 'dune' });
    const refused = await post('find_books', { words: '' });
    const unknown = await post('burn_books', {});
    expect([found.status, refused.status, unknown.status]).toEqual([200, 200, 404]);
    const [foundBody, refusedBody, unknownBody] = await Promise.all([found.json(), refused.json(), unknown.json()]);
    expect(await recordNamedBy(foundBody)).toEqual({ tool: 'find_books', outcome_code: 'SUCCESS' });
    expect(await recordNamedBy(refusedBody)).toEqual({ tool: 'find_books', outcome_code: 'INVALID_INPUT' });
    expect(await recordNamedBy(unknownBody)).toEqual({ tool: 'burn_books', outcome_code: 'NOT_FOUND' });
  });
});

describe('createAgentSite in its own pages (Chromium WebMCP)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('registers every tool but a commit on document.modelContext, and a call runs as the page’s visitor', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual(['find_books', 'order_book', 'wish_book']);
    const found = (await page.webmcp.callTool('find_books', { words: 'dune' })) as { ok: boolean; data: { books: Array<{ id: string }> } };
    expect(found).toMatchObject({ ok: true, data: { books: [{ id: 'dune' }] } });
    // The agent's result names the call's trace id, as the site recorded it.
    expect(await recordNamedBy(found)).toEqual({ tool: 'find_books', outcome_code: 'SUCCESS' });
    const wish = { book_id: 'emma', idempotency_key: 'page-wish-0001' };
    expect(await page.webmcp.callTool('wish_book', wish)).toMatchObject({ ok: true, data: { wishes: 1 } });
    // The same key again is the first answer, replayed: one wish.
    expect(await page.webmcp.callTool('wish_book', wish)).toMatchObject({ ok: true, data: { wishes: 1 }, replayed: true });
    expect(await page.webmcp.callTool('wish_book', { ...wish, book_id: 'dune' })).toMatchObject({ ok: false, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(shop.wishes).toEqual(['emma']);
    await page.close();
  });

  it('shows the person what an agent in the page prepared, and their Confirm on the linked page orders it', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    await expect.poll(async () => (await page.webmcp.tools()).length).toBe(3);
    const prepared = await page.webmcp.callTool('order_book', { book_id: 'emma' });
    expect(prepared).toMatchObject({ ok: true, uiUpdated: true, guidance: { requiresHumanConfirmation: true } });
    expect(shop.orders).toEqual(['dune']);
    const dialog = page.getByRole('dialog', { name: 'A request to confirm' });
    await expect.poll(() => dialog.textContent()).toContain('Your assistant prepared: Order “Emma” for 9 USD.');
    await dialog.getByRole('link', { name: 'Review and confirm' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByTestId('outcome').textContent()).toBe('Order a book: orderId "ord-2", title "Emma".');
    expect(shop.orders).toEqual(['dune', 'emma']);
    await page.close();
  });
});

describe('the confirmation page shows what will happen, character for character', () => {
  it('refuses control and bidirectional characters in an agent’s input, and shows those of the site’s own data as code points, so they cannot reorder the sentence', async () => {
    const notes: string[] = [];
    // A supplier wrote this dish's name: the site's data, not the agent's input, carries the override.
    const dishes: Record<string, string> = { tea: 'Tea \u202eDSU 005 :egrahC\u202c\u0000' };
    const sendNote = defineToolFor<null>()({
      name: 'send_note',
      title: 'Send the chef a note',
      effect: 'commit',
      description: 'Sends the chef a note about a dish. The person confirms it at guidance.confirmationUrl.',
      input: z.object({ dish_id: z.string().max(20), note: z.string().max(200) }),
      output: z.object({ sent: z.boolean() }),
      confirm: ({ dish_id, note }) => `Send the chef this note about ${dishes[dish_id] ?? dish_id}: “${note}”. Charge: 0 USD.`,
      handler: async ({ note }) => {
        notes.push(note);
        return { ok: true, data: { sent: true } };
      },
    });
    const noteFolder = mkdtempSync(join(tmpdir(), 'agent-site-notes-'));
    const notesSite = createAgentSite({
      name: 'Kitchen',
      tools: [sendNote],
      database: `file:${join(noteFolder, 'notes.sqlite')}`,
      logger: pino({ level: 'silent' }),
    });
    const served = await notesSite.listen({ port: 0 });
    try {
      const client = new Client({ name: 'test agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
      const refused = (await client.callTool({
        name: 'send_note',
        arguments: { dish_id: 'tea', note: 'Thanks! \u202eDSU 005 :egrahC\u202c' },
      })) as CallToolResult;
      expect(refused.structuredContent).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'note' });
      const prepared = (await client.callTool({ name: 'send_note', arguments: { dish_id: 'tea', note: 'Thanks!' } })) as CallToolResult;
      const link = (prepared.structuredContent as { guidance: { confirmationUrl: string } }).guidance.confirmationUrl;
      const html = await (await fetch(link)).text();
      expect(html).toContain('Send the chef this note about Tea [U+202E]DSU 005 :egrahC[U+202C][U+0000]: “Thanks!”. Charge: 0 USD.');
      expect(html).not.toContain('\u202e');
      expect(notes).toEqual([]);
      await client.close();
    } finally {
      await served.close();
      rmSync(noteFolder, { recursive: true, force: true });
    }
  });
});

describe('createAgentSite and arguments nested as deep as the body limit allows', () => {
  /** The faster of two answers, so one pause of a loaded machine does not decide; the bound below is generous for the same reason. */
  const fastestOfTwo = async <T>(send: () => Promise<T>) => {
    const [first, second] = [await timedAnswer(send), await timedAnswer(send)];
    return first.ms <= second.ms ? first : second;
  };

  it('the page’s tool route and /mcp answer INVALID_INPUT in about a flat body’s time, while another agent’s calls are answered', async () => {
    const pageCall = async (body: string) =>
      (await (
        await fetch(`${siteUrl}/agentready/tools/find_books`, { method: 'POST', headers: { origin: siteUrl, 'content-type': 'application/json' }, body })
      ).json()) as Record<string, unknown>;
    const mcpCall = async (body: string) => {
      const response = await fetch(`${siteUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body,
      });
      const data = (await response.text()).split('\n').find((line) => line.startsWith('data: ')) ?? 'data: {}';
      return ((JSON.parse(data.slice('data: '.length)) as { result?: CallToolResult }).result?.structuredContent ?? {}) as Record<string, unknown>;
    };
    const pageBytes = 64 * 1024 - 16;
    const surfaces = [
      { send: pageCall, deep: deeplyNestedArguments('words', pageBytes), flat: flatArguments('words', pageBytes) },
      {
        send: mcpCall,
        // The site's /mcp takes bodies up to 64 KiB, as its page route does.
        deep: toolCallMessage('find_books', pageBytes, (bytes) => deeplyNestedArguments('words', bytes)),
        flat: toolCallMessage('find_books', pageBytes, (bytes) => flatArguments('words', bytes)),
      },
    ];
    const client = await mcpClient();
    for (const { send, deep, flat } of surfaces) {
      const flatAnswer = await fastestOfTwo(() => send(flat));
      expect(flatAnswer.value).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'words' });
      const deepAnswer = await fastestOfTwo(() => send(deep));
      expect(deepAnswer.value).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
      expect(deepAnswer.value['message']).toContain('more than 64 levels deep');
      expect(deepAnswer.ms <= 3 * flatAnswer.ms + 250).toBe(true);
      const [, , found] = await Promise.all([send(deep), send(deep), client.callTool({ name: 'find_books', arguments: { words: 'dune' } })]);
      expect((found as CallToolResult).structuredContent).toMatchObject({ ok: true, data: { books: [{ id: 'dune' }] } });
    }
    await client.close();
  });
});

describe('createAgentSite behind a TLS-terminating proxy (siteUrl https, requests over http)', () => {
  let proxied: AgentSite;
  let proxiedFolder: string;

  beforeAll(async () => {
    proxiedFolder = mkdtempSync(join(tmpdir(), 'agent-site-proxied-'));
    proxied = createAgentSite({
      name: 'Bookshop',
      tools: [findBooks],
      database: `file:${join(proxiedFolder, 'shop.sqlite')}`,
      siteUrl: 'https://shop.example.org',
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await proxied.close();
    rmSync(proxiedFolder, { recursive: true, force: true });
  });

  /** A page's call of find_books, as the proxy passes it on (plain http), with `cookie` if given; answers the cookie lines set. */
  async function pageCallCookies(site: AgentSite, origin: string, cookie?: string): Promise<string[]> {
    const answer = await site.fetch(
      new Request(`${origin.replace(/^https:/, 'http:')}/agentready/tools/find_books`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...(cookie !== undefined && { cookie }) },
        body: JSON.stringify({ words: 'dune' }),
      }),
    );
    expect(answer.status).toBe(200);
    return answer.headers.getSetCookie();
  }

  it('gives the visitor a __Host- cookie with Secure, Path=/ and no Domain', async () => {
    const [line = '', ...others] = await pageCallCookies(proxied, 'https://shop.example.org');
    expect(others).toEqual([]);
    expect(line).toMatch(/^__Host-agentready_visitor=/);
    const attributes = line.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'path=/', 'httponly']));
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
  });

  it('does not take a plain agentready_visitor cookie, valid as it may be, as the visitor: it starts a __Host- one', async () => {
    const [line = ''] = await pageCallCookies(proxied, 'https://shop.example.org');
    const planted = `agentready_visitor=${line.slice(line.indexOf('=') + 1, line.indexOf(';'))}`;
    const [fresh = ''] = await pageCallCookies(proxied, 'https://shop.example.org', planted);
    expect(fresh).toMatch(/^__Host-agentready_visitor=/);
  });

  it('on plain http without a siteUrl, the visitor cookie keeps its plain name, without Secure', async () => {
    const [line = ''] = await pageCallCookies(site, siteUrl);
    expect(line).toMatch(/^agentready_visitor=/);
    expect(line.toLowerCase()).not.toContain('secure');
  });
});
