/**
 * GiftGenius as an operator starts it (src/server/main.ts, its own process):
 * on a database of either dialect, with the payment provider stand-in it
 * starts itself, it serves; on SIGTERM it stops and exits 0, and listens no
 * more; a checkout in flight at SIGTERM (the provider slow) still reaches
 * its client with its whole answer. A setting it cannot start with ends it
 * with exit code 2. The payment provider stand-in listens on loopback even
 * when the site listens on every address (unless GIFTGENIUS_PROVIDER_HOST
 * says otherwise), and TOOL_CALLS_PER_MINUTE limits a person's tool calls.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil, requirePostgresForTests, startSiteProcess, type SiteProcess } from '@agentready/testing';
import { DEMO_PERSON } from '../src/store/demo-accounts.ts';
import { chatHostOver, type ChatHost } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { DIALECTS, openTestDatabase, POSTGRES_TEST_URL } from './support/giftgenius-site.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius site process' });
const LISTENING = 'GiftGenius is listening';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port of 127.0.0.1 free a moment ago (the site logs its SITE_URL, so it must know its port before it listens). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function started(site: SiteProcess): SiteProcess {
  cleanups.push(() => site.kill());
  return site;
}

describe.each(DIALECTS)('the GiftGenius process on %s', (dialect) => {
  it.runIf(dialect === 'sqlite' || runPostgres)('serves its pages, and on SIGTERM exits 0 and listens no more', { timeout: 60_000 }, async () => {
    const database = await openTestDatabase(dialect);
    cleanups.push(() => database.close());
    const port = await freePort();
    const site = started(
      await startSiteProcess({
        entry: MAIN,
        env: { PORT: String(port), DATABASE_URL: database.url, DEMO_ACCOUNTS: 'off', GIFTGENIUS_PROVIDER_PORT: '0' },
        listeningMessage: LISTENING,
        ...(dialect === 'postgres' && { adminUrl: POSTGRES_TEST_URL }),
      }),
    );
    expect(site.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${site.url}/signin`)).status).toBe(200);

    process.kill(site.pid, 'SIGTERM');
    expect(await site.exited).toBe(0);
    await expect(fetch(`${site.url}/signin`)).rejects.toThrow();
  });

  it.runIf(dialect === 'sqlite' || runPostgres)(
    'answers checkouts in flight at SIGTERM in full, to clients of both protocol eras, before it exits 0',
    { timeout: 60_000 },
    async () => {
      const database = await openTestDatabase(dialect);
      cleanups.push(() => database.close());
      const [port, providerPort] = [await freePort(), await freePort()];
      const site = started(
        await startSiteProcess({
          entry: MAIN,
          env: {
            PORT: String(port),
            DATABASE_URL: database.url,
            DEMO_ACCOUNTS: 'on',
            GIFTGENIUS_PROVIDER_PORT: String(providerPort),
            GIFTGENIUS_PROVIDER_KEY: PROVIDER_KEY,
          },
          listeningMessage: LISTENING,
          ...(dialect === 'postgres' && { adminUrl: POSTGRES_TEST_URL }),
        }),
      );
      const provider = standInAt(`http://127.0.0.1:${providerPort}`);
      const connected = await connectPerson({ siteUrl: site.url, ...DEMO_PERSON });
      cleanups.push(() => connected.close().catch(() => undefined));
      const host = chatHostOver(connected.client);
      const modern = new Client({ name: 'giftgenius-test-host-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await modern.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', site.url), { requestInit: { headers: { authorization: `Bearer ${connected.accessToken}` } } }),
      );
      cleanups.push(() => modern.close().catch(() => undefined));

      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
        recipient: { relationship: 'friend', age: 30 },
        limit: 5,
      });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      const [firstGift, secondGift] = found.envelope.data.gifts.filter((gift) => gift.inStock).map((gift) => gift.giftId);
      const reviewed = [await prepareCheckout(host, firstGift!), await prepareCheckout(host, secondGift!)];

      // The provider creates a session at once and answers 1.5 s later: from its session's creation on, a checkout is in flight.
      await provider.control('PUT', '/_stand-in/switches', { checkout: 'slow', slowMs: 1_500 });
      const answers = [connected.client, modern].map((client, index) => widgetConfirms(client, reviewed[index]!));
      const sessions = await pollUntil('the provider sessions of both checkouts in flight', async () => {
        const listed = (await provider.control('GET', '/_stand-in/sessions')) as { data: Array<{ id: string; client_reference_id: string | null }> };
        const ofDrafts = reviewed.map((widget) => listed.data.find((session) => session.client_reference_id?.startsWith(widget.draftId)));
        return ofDrafts.every((session) => session !== undefined) ? ofDrafts : undefined;
      });
      process.kill(site.pid, 'SIGTERM');

      const results = await Promise.all(answers);
      for (const [index, result] of results.entries()) {
        expect(result.structuredContent).toMatchObject({ ok: true, code: 'SUCCESS', data: { checkout: { sessionId: sessions[index]!.id } } });
      }
      expect(await site.exited).toBe(0);
    },
  );
});

/** The secret key the process's own provider stand-in is started with. */
const PROVIDER_KEY = 'sk_test_giftgenius_site_process';

/**
 * How long a test client waits for a tool's answer before it gives up: a guard,
 * not a measurement (a stream cut mid-answer is no error to the client, which
 * would otherwise wait out its own 60 s).
 */
const ANSWER_GIVE_UP_MS = 20_000;

type WidgetConfirmation = { confirmationToken: string; draftId: string; draftVersion: number };

/** The model prepares the checkout of one `giftId`; answers what the host hands only the widget. */
async function prepareCheckout(host: ChatHost, giftId: string): Promise<WidgetConfirmation> {
  const review = await host.modelCall('prepare_checkout', { gift_id: giftId, quantity: 1 });
  if (!review.envelope.ok) throw new Error(review.envelope.message);
  return review.meta['giftgenius/checkout'] as WidgetConfirmation;
}

/** The widget's Confirm through `client`: the token it received and a key of its own. */
function widgetConfirms(client: Client, widget: WidgetConfirmation): Promise<CallToolResult> {
  const args = { draft_id: widget.draftId, draft_version: widget.draftVersion, confirmation_token: widget.confirmationToken, idempotency_key: randomUUID() };
  return client.callTool({ name: 'create_checkout_session', arguments: args }, { timeout: ANSWER_GIVE_UP_MS });
}

/** Requests to the site process's provider stand-in, as an operator sends them with curl; throws on any answer but 200. */
function standInAt(url: string) {
  return {
    async control(method: string, path: string, body?: unknown): Promise<unknown> {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${PROVIDER_KEY}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response.json();
    },
  };
}

describe('a setting GiftGenius cannot start with', () => {
  it('ends the process with exit code 2 before it opens anything', async () => {
    const refused: Array<Record<string, string>> = [
      { PORT: '70000' },
      { GIFTGENIUS_DAILY_SUGGESTIONS: 'many' },
      { GIFTGENIUS_PROVIDER_PORT: '-1' },
      { TOOL_CALLS_PER_MINUTE: '-5' },
    ];
    for (const env of refused) {
      const start = startSiteProcess({ entry: MAIN, env: { ...env, DATABASE_URL: 'file:/nonexistent/never-opened.sqlite' }, listeningMessage: LISTENING });
      await expect(start, JSON.stringify(env)).rejects.toThrow('exited with code 2');
    }
  });
});

/** Whether anything answers HTTP at `origin` (any status), or the connection is refused. */
async function answersAt(origin: string): Promise<boolean> {
  return fetch(`${origin}/v1/products`).then(
    () => true,
    () => false,
  );
}

describe('where the payment provider stand-in listens', () => {
  // Linux routes all of 127.0.0.0/8 to loopback: a listener on every address answers at 127.0.0.2, one on 127.0.0.1 does not.
  it('listens on 127.0.0.1 only when the site listens on every address, unless GIFTGENIUS_PROVIDER_HOST says otherwise', { timeout: 60_000 }, async () => {
    for (const providerHost of [undefined, '0.0.0.0']) {
      const [port, providerPort] = [await freePort(), await freePort()];
      const site = started(
        await startSiteProcess({
          entry: MAIN,
          env: {
            PORT: String(port),
            HOST: '0.0.0.0',
            GIFTGENIUS_PROVIDER_PORT: String(providerPort),
            DATABASE_URL: ':memory:',
            DEMO_ACCOUNTS: 'off',
            ...(providerHost && { GIFTGENIUS_PROVIDER_HOST: providerHost }),
          },
          listeningMessage: LISTENING,
        }),
      );
      expect((await fetch(`http://127.0.0.2:${port}/signin`)).status).toBe(200);
      expect(await answersAt(`http://127.0.0.1:${providerPort}`)).toBe(true);
      expect(await answersAt(`http://127.0.0.2:${providerPort}`), `GIFTGENIUS_PROVIDER_HOST=${providerHost}`).toBe(providerHost === '0.0.0.0');
      await site.kill();
    }
  });
});

describe('TOOL_CALLS_PER_MINUTE', () => {
  it('refuses a person’s tool calls over the limit with RATE_LIMITED', { timeout: 60_000 }, async () => {
    const site = started(
      await startSiteProcess({
        entry: MAIN,
        env: { PORT: String(await freePort()), DATABASE_URL: ':memory:', GIFTGENIUS_PROVIDER_PORT: '0', TOOL_CALLS_PER_MINUTE: '2' },
        listeningMessage: LISTENING,
      }),
    );
    const gina = await connectPerson({ siteUrl: site.url, ...DEMO_PERSON });
    cleanups.push(() => gina.close());
    const host = chatHostOver(gina.client);
    const codes = [];
    for (let call = 0; call < 3; call++)
      codes.push((await host.modelCall('suggest_gifts', { recipient: { relationship: 'friend' }, interests: ['tea'] })).envelope.code);
    expect(codes).toEqual(['SUCCESS', 'SUCCESS', 'RATE_LIMITED']);
  });
});
