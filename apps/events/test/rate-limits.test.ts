/**
 * Rate limits on the Events site, through its real surfaces, on SQLite and
 * PostgreSQL: tool calls per principal over `/mcp` (the official client) and
 * `POST /api/tools/:name` are refused RATE_LIMITED with `retryAfterSeconds`
 * once over the limit, run nothing and leave evidence; another principal is
 * not affected; once the window has passed the call goes through again. A
 * REST route over its limit answers 429 with `Retry-After`.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { AppVisitor } from './support/app-visitor.ts';
import { signInOverHttp } from './support/site-person.ts';
import { storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
/** Tool calls allowed per window in these tests, and the window, in seconds. */
const LIMIT = { points: 3, durationSeconds: 2 };

type Failure = { ok: false; code: string; message: string; retryable: boolean; retryAfterSeconds?: number; nextAction?: string };

const dialects = await storeDialects('the rate limit tests');

describe.each(dialects)('rate limits on $name', (dialect) => {
  let fixture: DatabaseFixture;
  let app: EventsApp;
  let listener: LoopbackListener;
  const clients: Client[] = [];

  beforeEach(async () => {
    fixture = await dialect.open();
    app = createEventsApp({
      db: fixture.db,
      now: () => new Date(),
      logger: pino({ level: 'silent' }),
      rateLimits: {
        toolCalls: LIMIT,
        accessTokenCreations: { points: 2, durationSeconds: 60 },
        signIn: { perAccount: { points: 3, durationSeconds: 60 }, perAddress: { points: 6, durationSeconds: 60 } },
      },
    });
    listener = await listenOnLoopback(app.fetch);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await app.closeMcp();
    await listener.close();
    await fixture.close();
  });

  async function mcpClient(token: string): Promise<Client> {
    const client = new Client({ name: 'rate-limit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  async function personWithToken(): Promise<{ visitor: AppVisitor; token: string }> {
    const visitor = await new AppVisitor(() => app).start();
    await visitor.signUp();
    const created = await visitor.call('POST', '/api/access-tokens', { label: 'Rate limit test' });
    expect(created.status).toBe(201);
    return { visitor, token: (created.body as { token: string }).token };
  }

  async function savedCount(): Promise<number> {
    const row = await fixture.db
      .selectFrom('saved_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function outcomes(tool: string): Promise<string[]> {
    const rows = await fixture.db.selectFrom('agentready_audit_record').select('outcome_code').where('tool', '=', tool).orderBy('occurred_at').execute();
    return rows.map((row) => row.outcome_code);
  }

  it('refuses MCP tool calls over the limit RATE_LIMITED, runs nothing, records it, and lets them through after the window', async () => {
    const { token } = await personWithToken();
    const client = await mcpClient(token);
    for (let call = 0; call < LIMIT.points; call += 1) {
      const result = (await client.callTool({ name: 'get_event_details', arguments: { event_id: OPEN_EVENT } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
    }

    const refused = (await client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    const envelope = refused.structuredContent as Failure;
    expect(envelope).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryable: true });
    expect(envelope.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(envelope.retryAfterSeconds).toBeLessThanOrEqual(LIMIT.durationSeconds);
    expect(envelope.message).toMatch(/Try again in \d+ seconds?\./);
    expect(envelope.nextAction).toBeTruthy();
    const text = refused.content.find((part) => part.type === 'text')?.text ?? '';
    expect(text).toContain('RATE_LIMITED');
    expect(text).toMatch(/after \d+ seconds?/);
    expect(await savedCount()).toBe(0);
    expect(await outcomes('save_event')).toEqual(['RATE_LIMITED']);

    // Another person (another token) is not held back by this one's count.
    const other = await mcpClient((await personWithToken()).token);
    const othersSave = (await other.callTool({ name: 'save_event', arguments: { event_id: OTHER_EVENT } })) as CallToolResult;
    expect(othersSave.isError).toBeFalsy();
    expect(await savedCount()).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, (envelope.retryAfterSeconds ?? 0) * 1000 + 200));
    const again = (await client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })) as CallToolResult;
    expect(again.isError).toBeFalsy();
    expect(await savedCount()).toBe(2);
  });

  it('refuses page tool calls (POST /api/tools/:name) over the limit in the envelope, per session', async () => {
    const visitor = await new AppVisitor(() => app).start();
    for (let call = 0; call < LIMIT.points; call += 1) {
      const answer = await visitor.call('POST', '/api/tools/search_events', { keyword: 'WebMCP' });
      expect((answer.body as { ok: boolean }).ok).toBe(true);
    }
    const refused = await visitor.call('POST', '/api/tools/save_event', { event_id: OPEN_EVENT });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryable: true });
    expect((refused.body as unknown as Failure).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await savedCount()).toBe(0);
    expect(await outcomes('save_event')).toEqual(['RATE_LIMITED']);

    const otherVisitor = await new AppVisitor(() => app).start();
    const othersSave = await otherVisitor.call('POST', '/api/tools/save_event', { event_id: OPEN_EVENT });
    expect(othersSave.body).toMatchObject({ ok: true });
  });

  it('answers a REST route over its limit 429 with Retry-After, and does not run it', async () => {
    const { visitor } = await personWithToken();
    const second = await visitor.call('POST', '/api/access-tokens', { label: 'Second' });
    expect(second.status).toBe(201);
    const third = await visitor.call('POST', '/api/access-tokens', { label: 'Third' });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryable: true });
    const retryAfter = (third.body as Failure).retryAfterSeconds;
    const response = await app.request('/api/access-tokens', {
      method: 'POST',
      headers: { cookie: `ar_session=${visitor.cookie}`, 'x-csrf-token': visitor.csrfToken!, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Fourth' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    const listed = await visitor.call('GET', '/api/access-tokens');
    expect((listed.body as { accessTokens: unknown[] }).accessTokens).toHaveLength(2);
  });

  const signInHere = (email: string, password: string) => signInOverHttp(listener.url, email, password);

  it('limits sign-in attempts per account: after 3 failures even the right password waits, and says how long', async () => {
    const mei = await (await new AppVisitor(() => app).start()).signUp();
    const ken = await (await new AppVisitor(() => app).start()).signUp();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await signInHere(mei.email, 'not the password')).status).toBe(401);
    }
    const refused = await signInHere(mei.email, mei.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryable: true });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((refused.body as unknown as Failure).retryAfterSeconds).toBe(Number(refused.retryAfter));
    expect(JSON.stringify(refused.body)).not.toContain(mei.email);
    // The same address may still sign another person in.
    expect((await signInHere(ken.email, ken.password)).status).toBe(200);
  });

  it('limits sign-in attempts per address, across accounts, so guessing many accounts from one place stops', async () => {
    const mei = await (await new AppVisitor(() => app).start()).signUp();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await signInHere(`nobody-${attempt}@example.com`, 'a guessed password')).status).toBe(401);
    }
    const refused = await signInHere(mei.email, mei.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('counts sign-ups against the same per-address budget, so one place cannot create accounts without end', async () => {
    const signUpHere = (email: string) => signInOverHttp(listener.url, email, 'a long enough password', 'sign-up');
    for (let account = 0; account < 6; account += 1) expect((await signUpHere(`new-${account}-${Date.now()}@example.com`)).status).toBe(201);
    const refused = await signUpHere(`one-too-many-${Date.now()}@example.com`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    const accounts = await fixture.db
      .selectFrom('agentready_account')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(accounts.count)).toBe(6);
  });

  it("counts a password change's check of the current password as a sign-in attempt, so a stolen session cannot guess it", async () => {
    const visitor = await new AppVisitor(() => app).start();
    const { password } = await visitor.signUp();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const wrong = await visitor.call('POST', '/api/account/password', { currentPassword: `guess number ${attempt}`, newPassword: 'a new password here' });
      expect(wrong.status).toBe(401);
    }
    const refused = await visitor.call('POST', '/api/account/password', { currentPassword: password, newPassword: 'a new password here' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    // Nothing changed: the password is still the one the account was created with.
    const account = await fixture.db.selectFrom('agentready_account').select('password_changed_at').executeTakeFirstOrThrow();
    const created = await fixture.db.selectFrom('agentready_account').select('created_at').executeTakeFirstOrThrow();
    expect(account.password_changed_at).toBe(created.created_at);
  });
});
