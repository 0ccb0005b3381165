/**
 * Personal access tokens, through the surfaces people and agents use: the REST
 * API by `app.request()` (only a signed-in person creates one; the token shown
 * once, never listed, revoked for good, with its scope; the same account's from
 * any browser it signs in with, another account's never reachable, refusals
 * changing nothing), the domain on SQLite and PostgreSQL (the token acts as the
 * account that made it, within its scope; the limit holds under concurrent
 * creation), and a signed-in person on /connect in Chromium.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Principal } from 'agentready';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import { createEventsApp, type EventsApp, type EventsAppOptions } from '../src/server/create-events-app.ts';
import { AppVisitor, TEST_PASSWORD } from './support/app-visitor.ts';
import { createSqliteFixture, createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { openSitePerson } from './support/site-person.ts';
import { PAGE_TEMPLATE_FIXTURE } from './support/page-template.ts';
import { signedUpSession, visitorSession } from './support/signed-in-principal.ts';
import { signUpInBrowser } from './support/browser-sign-up.ts';

const TOKEN_SHAPE = /^are_pat_[A-Za-z0-9_-]{43}$/;
const OPEN_EVENT = 'evt-webmcp-intro';
const STDIO_LAUNCH = { command: 'node', args: ['/srv/agentready/apps/events/bin/agentready-events.mjs', 'mcp'] };

type Created = { token: string; accessToken: { id: string; label: string; scope: string; createdAt: string; expiresAt: string; lastUsedAt: null } };
type Listed = { accessTokens: Array<{ id: string; label: string; scope: string; createdAt: string; expiresAt: string; lastUsedAt: string | null }> };

/** What a token of scope `prepare` (the default) may do: read, prepare and save (@agentready/identity, TOKEN_SCOPES). */
const PREPARE_EFFECTS = ['read', 'prepare', 'write'];

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const dialects = await storeDialects('the access token domain tests');

/** Who a token acts as, or null: what the `/mcp` route and the stdio server ask. */
async function principalOfToken(services: EventsServices, token: string | undefined): Promise<Principal | null> {
  return (await services.verifyAccessToken(token))?.principal ?? null;
}

describe('the access token API', () => {
  let webRoot: string;
  let fixture: DatabaseFixture;
  let clock: TestClock;
  let services: EventsServices;
  let app: EventsApp;
  /** Every answer, except the create answers, for the check that no token or hash ever shows. */
  let answers: Array<{ where: string; text: string }>;
  let issuedTokens: string[];

  beforeAll(() => {
    webRoot = mkdtempSync(join(tmpdir(), 'events-web-'));
    writeFileSync(join(webRoot, 'index.html'), PAGE_TEMPLATE_FIXTURE);
  });
  afterAll(() => {
    rmSync(webRoot, { recursive: true, force: true });
  });

  function buildApp(extra: Partial<EventsAppOptions> = {}): EventsApp {
    return createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }), webRoot, ...extra });
  }

  beforeEach(async () => {
    fixture = await createSqliteFixture();
    clock = createTestClock();
    services = createEventsServices({ db: fixture.db, now: clock.now });
    app = buildApp();
    answers = [];
    issuedTokens = [];
  });
  afterEach(async () => {
    const hashes = (await fixture.db.selectFrom('agentready_access_token').select('token_hash').execute()).map((row) => row.token_hash);
    await fixture.close();
    for (const { where, text } of answers) {
      for (const token of issuedTokens) expect(text, where).not.toContain(token);
      for (const hash of hashes) expect(text, where).not.toContain(hash);
      expect(text, where).not.toMatch(/session_?id|account_?id|token_hash/i);
    }
  });

  /** A browser with its session cookie and CSRF token; every answer but the create answers goes to the leak check. */
  class Visitor extends AppVisitor {
    constructor() {
      super(() => app, {
        onAnswer: ({ method, path, status, text }) => {
          const created = method === 'POST' && path === '/api/access-tokens' && status === 201;
          if (!created) answers.push({ where: `${method} ${path}`, text });
        },
      });
    }

    async createToken(label: string, scope?: 'read' | 'prepare'): Promise<Created> {
      const answer = await this.call('POST', '/api/access-tokens', { label, ...(scope !== undefined && { scope }) });
      expect(answer.status, answer.text).toBe(201);
      const created = answer.body as Created;
      issuedTokens.push(created.token);
      return created;
    }

    async listedLabels(): Promise<string[]> {
      const answer = await this.call('GET', '/api/access-tokens');
      expect(answer.status).toBe(200);
      return (answer.body as Listed).accessTokens.map((token) => token.label);
    }
  }

  /** A visitor who has not signed in. */
  const anonymousVisitor = () => new Visitor().start();

  /** A person who signed up in this browser (only they create tokens); `email` to sign in elsewhere. */
  async function visitor(): Promise<Visitor & { email: string }> {
    const browser = await anonymousVisitor();
    const { email } = await browser.signUp();
    return Object.assign(browser, { email });
  }

  /** The same person in another browser, signed in with the account's e-mail address. */
  async function sameAccountElsewhere(email: string): Promise<Visitor> {
    const browser = await anonymousVisitor();
    expect((await browser.signIn(email, TEST_PASSWORD)).status).toBe(200);
    return browser;
  }

  async function tokenRows(): Promise<number> {
    return (await fixture.db.selectFrom('agentready_access_token').select('id').execute()).length;
  }

  it('creates a token shown once, in the token shape, of which only the SHA-256 is stored', async () => {
    const browser = await visitor();
    const answer = await browser.call('POST', '/api/access-tokens', { label: '  Claude Desktop  ' });
    expect(answer.status).toBe(201);
    const created = answer.body as Created;
    issuedTokens.push(created.token);
    expect(created).toEqual({
      token: expect.stringMatching(TOKEN_SHAPE),
      accessToken: {
        id: expect.stringMatching(/^pat-[A-Za-z0-9_-]{16}$/),
        label: 'Claude Desktop',
        scope: 'prepare',
        createdAt: '2026-11-29T10:00:00+08:00',
        expiresAt: '2027-02-27T10:00:00+08:00',
        lastUsedAt: null,
      },
    });

    const rows = await fixture.db.selectFrom('agentready_access_token').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(sha256Hex(created.token));
    expect(JSON.stringify(rows)).not.toContain(created.token.slice('are_pat_'.length));
  });

  it("lists the account's tokens newest first, with their scope, no token and no hash, in every browser it signs in with", async () => {
    const browser = await visitor();
    const first = await browser.createToken('Claude Desktop');
    clock.advance(60_000);
    const second = await browser.createToken('IDE agent', 'read');

    const expected = {
      accessTokens: [
        {
          id: second.accessToken.id,
          label: 'IDE agent',
          scope: 'read',
          createdAt: '2026-11-29T10:01:00+08:00',
          expiresAt: '2027-02-27T10:01:00+08:00',
          lastUsedAt: null,
        },
        {
          id: first.accessToken.id,
          label: 'Claude Desktop',
          scope: 'prepare',
          createdAt: '2026-11-29T10:00:00+08:00',
          expiresAt: '2027-02-27T10:00:00+08:00',
          lastUsedAt: null,
        },
      ],
    };
    expect((await browser.call('GET', '/api/access-tokens')).body).toEqual(expected);
    const elsewhere = await sameAccountElsewhere(browser.email);
    expect((await elsewhere.call('GET', '/api/access-tokens')).body).toEqual(expected);
  });

  it("gives the live token the account's principal, so what an agent saves is what the person sees in every browser", async () => {
    const browser = await visitor();
    const versionBefore = ((await browser.call('GET', '/api/session')).body as { stateVersion: number }).stateVersion;
    const { token, accessToken } = await browser.createToken('Claude Desktop');
    const principal = await principalOfToken(services, token);
    expect(principal).toEqual({
      id: expect.any(String),
      kind: 'token',
      ref: accessToken.id,
      account: { id: expect.any(String), ref: expect.any(String) },
      scope: PREPARE_EFFECTS,
      clientName: 'Claude Desktop',
    });

    const saved = await services.saveEvent(principal as Principal, OPEN_EVENT);
    expect(saved.ok).toBe(true);
    const savedIds = async (someone: Visitor) =>
      ((await someone.call('GET', '/api/saved')).body as { events: Array<{ id: string }> }).events.map((event) => event.id);
    expect(await savedIds(browser)).toEqual([OPEN_EVENT]);
    expect((await browser.call('GET', '/api/session')).body).toMatchObject({ stateVersion: versionBefore + 1 });
    expect(await savedIds(await sameAccountElsewhere(browser.email))).toEqual([OPEN_EVENT]);
    expect(await savedIds(await visitor())).toEqual([]);
  });

  it('gives a read-only token a principal that may only read', async () => {
    const browser = await visitor();
    const { token, accessToken } = await browser.createToken('Reader', 'read');
    expect(accessToken.scope).toBe('read');
    expect(await principalOfToken(services, token)).toMatchObject({ kind: 'token', ref: accessToken.id, scope: ['read'] });
  });

  it('shows when a token was last used, noting it at most once a minute', async () => {
    const browser = await visitor();
    const { token } = await browser.createToken('Claude Desktop');
    const lastUsed = async () => ((await browser.call('GET', '/api/access-tokens')).body as Listed).accessTokens[0]?.lastUsedAt;

    clock.advance(5 * 60_000);
    await principalOfToken(services, token);
    expect(await lastUsed()).toBe('2026-11-29T10:05:00+08:00');
    clock.advance(30_000);
    await principalOfToken(services, token);
    expect(await lastUsed()).toBe('2026-11-29T10:05:00+08:00');
    clock.advance(31_000);
    await principalOfToken(services, token);
    expect(await lastUsed()).toBe('2026-11-29T10:06:01+08:00');
  });

  it('revokes a token: it leaves the list, stops acting as the person, and cannot be revoked twice', async () => {
    const browser = await visitor();
    const kept = await browser.createToken('Laptop');
    const revoked = await browser.createToken('Old desktop');

    const answer = await browser.call('DELETE', `/api/access-tokens/${revoked.accessToken.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ accessToken: { id: revoked.accessToken.id, revokedAt: '2026-11-29T10:00:00+08:00' } });
    expect(await browser.listedLabels()).toEqual(['Laptop']);
    expect(await principalOfToken(services, revoked.token)).toBeNull();
    expect(await principalOfToken(services, kept.token)).not.toBeNull();

    const again = await browser.call('DELETE', `/api/access-tokens/${revoked.accessToken.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ ok: false, code: 'NOT_FOUND', field: 'id' });
  });

  it('finds no principal for an unknown, a malformed or a missing token', async () => {
    const browser = await visitor();
    const { token } = await browser.createToken('Claude Desktop');
    const lastChar = token.endsWith('A') ? 'B' : 'A';
    for (const presented of [`${token.slice(0, -1)}${lastChar}`, token.slice('are_pat_'.length), `${token}x`, `Bearer ${token}`, '', undefined]) {
      expect(await principalOfToken(services, presented), String(presented)).toBeNull();
    }
  });

  it("keeps one account's tokens from another: not listed, not revocable (NOT_FOUND), still working", async () => {
    const owner = await visitor();
    const stranger = await visitor();
    const { token, accessToken } = await owner.createToken('Claude Desktop');

    expect(await stranger.listedLabels()).toEqual([]);
    const answer = await stranger.call('DELETE', `/api/access-tokens/${accessToken.id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ ok: false, code: 'NOT_FOUND', field: 'id', retryable: false });
    expect(await owner.listedLabels()).toEqual(['Claude Desktop']);
    expect(await principalOfToken(services, token)).toMatchObject({ ref: accessToken.id });
  });

  it('stops a token working 90 days after it was created, and drops it from the list', async () => {
    const browser = await visitor();
    const { token, accessToken } = await browser.createToken('Claude Desktop');
    expect(new Date(accessToken.expiresAt).getTime() - new Date(accessToken.createdAt).getTime()).toBe(90 * 24 * 60 * 60 * 1000);

    clock.advance(90 * 24 * 60 * 60 * 1000 - 1000);
    expect((await services.verifyAccessToken(token))?.expiresAt.toISOString()).toBe(new Date(accessToken.expiresAt).toISOString());
    // The browser's session ended long ago (30 days at most): the person signs in again.
    const back = await sameAccountElsewhere(browser.email);
    expect(await back.listedLabels()).toEqual(['Claude Desktop']);

    clock.advance(1000);
    expect(await principalOfToken(services, token)).toBeNull();
    expect(await back.listedLabels()).toEqual([]);
  });

  it('refuses to create or revoke without the CSRF token (403), changing nothing', async () => {
    const browser = await visitor();
    const { token, accessToken } = await browser.createToken('Claude Desktop');

    const create = await browser.call('POST', '/api/access-tokens', { label: 'Sneaky' }, { csrf: null });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const revoke = await browser.call('DELETE', `/api/access-tokens/${accessToken.id}`, undefined, { csrf: 'wrong' });
    expect(revoke.status).toBe(403);
    expect(revoke.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });

    expect(await browser.listedLabels()).toEqual(['Claude Desktop']);
    expect(await tokenRows()).toBe(1);
    expect(await principalOfToken(services, token)).not.toBeNull();
  });

  it('lists nothing and creates nothing without a session', async () => {
    const stranger = new Visitor();
    expect((await stranger.call('GET', '/api/access-tokens')).body).toEqual({ accessTokens: [] });
    const create = await stranger.call('POST', '/api/access-tokens', { label: 'Claude Desktop' }, { csrf: null });
    expect(create.status).toBe(401);
    expect(create.body).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await tokenRows()).toBe(0);
  });

  it('asks an anonymous visitor to sign in (401) before creating or revoking a token, and stores nothing', async () => {
    const owner = await visitor();
    const { token, accessToken } = await owner.createToken('Claude Desktop');
    const stranger = await anonymousVisitor();
    expect((await stranger.call('GET', '/api/access-tokens')).body).toEqual({ accessTokens: [] });

    const create = await stranger.call('POST', '/api/access-tokens', { label: 'Claude Desktop' });
    expect(create.status).toBe(401);
    expect(create.body).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
      message: expect.stringMatching(/^Sign in to /),
      nextAction: expect.stringMatching(/[Ss]ign in/),
    });
    const revoke = await stranger.call('DELETE', `/api/access-tokens/${accessToken.id}`);
    expect(revoke.status).toBe(401);
    expect(revoke.body).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });

    expect(await tokenRows()).toBe(1);
    expect(await owner.listedLabels()).toEqual(['Claude Desktop']);
    expect(await principalOfToken(services, token)).not.toBeNull();
  });

  it.each([
    ['an empty label', ''],
    ['only spaces', '   '],
    ['61 characters', 'x'.repeat(61)],
    ['two lines', 'Claude\nDesktop'],
    ['a control character', 'Claude\u0007'],
    ['a right-to-left override', 'Claude \u202Epotksed'],
  ])('refuses %s as INVALID_INPUT naming the label, storing nothing', async (_case, label) => {
    const browser = await visitor();
    const answer = await browser.call('POST', '/api/access-tokens', { label });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'label',
      retryable: false,
      message: expect.stringContaining('60 characters'),
    });
    expect(await tokenRows()).toBe(0);
  });

  it('refuses a body that is not { label: string }, naming the field', async () => {
    const browser = await visitor();
    for (const [body, field] of [
      [{ label: 42 }, 'label'],
      [{}, 'label'],
      [{ label: 'Claude', scope: 'all' }, 'scope'],
    ] as const) {
      const answer = await browser.call('POST', '/api/access-tokens', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ ok: false, code: 'INVALID_INPUT', field });
    }
    expect(await tokenRows()).toBe(0);
  });

  it('accepts a label of 60 characters counted as characters, not UTF-16 units', async () => {
    const browser = await visitor();
    const label = '\u{1F600}'.repeat(60);
    expect((await browser.createToken(label)).accessToken.label).toBe(label);
  });

  it('holds at most 20 tokens per account (CONFLICT), and makes room again after a revoke', async () => {
    const browser = await visitor();
    const first = await browser.createToken('Token 1');
    for (let index = 2; index <= 20; index += 1) await browser.createToken(`Token ${index}`);

    const refusedAnswer = await browser.call('POST', '/api/access-tokens', { label: 'Token 21' });
    expect(refusedAnswer.status).toBe(409);
    expect(refusedAnswer.body).toMatchObject({ ok: false, code: 'CONFLICT', message: expect.stringContaining('Revoke one') });
    expect(await tokenRows()).toBe(20);

    expect((await browser.call('DELETE', `/api/access-tokens/${first.accessToken.id}`)).status).toBe(200);
    await browser.createToken('Token 21');
    expect(await browser.listedLabels()).toHaveLength(20);
    expect(await (await visitor()).createToken('Another person')).toBeTruthy();
  });

  it('counts only live tokens against the 20: expired ones leave room, as they leave the list', async () => {
    const browser = await visitor();
    for (let index = 1; index <= 20; index += 1) await browser.createToken(`Token ${index}`);
    clock.advance(91 * 24 * 60 * 60 * 1000);
    // The browser's session ended long ago (30 days at most): the person signs in again.
    const back = await sameAccountElsewhere(browser.email);
    expect(await back.listedLabels()).toEqual([]);
    await back.createToken('After the summer');
    expect(await back.listedLabels()).toEqual(['After the summer']);
  });

  it('tells /connect the MCP URL, and the stdio launch only when the server was given one', async () => {
    const browser = await visitor();
    expect((await browser.call('GET', '/api/connect-info')).body).toEqual({ mcpUrl: 'http://localhost/mcp', stdio: null });
    app = buildApp({ connection: { stdio: STDIO_LAUNCH } });
    expect((await browser.call('GET', '/api/connect-info')).body).toEqual({ mcpUrl: 'http://localhost/mcp', stdio: STDIO_LAUNCH });
    app = buildApp({ connection: { stdio: { ...STDIO_LAUNCH, env: { DATABASE_URL: 'postgres://events:s3cret@db.internal:5432/events' } } } });
    const answer = await browser.call('GET', '/api/connect-info');
    expect(answer.body).toEqual({
      mcpUrl: 'http://localhost/mcp',
      stdio: { ...STDIO_LAUNCH, env: { DATABASE_URL: 'postgres://events:<password>@db.internal:5432/events' } },
    });
    expect(answer.text).not.toContain('s3cret');

    app = buildApp({ connection: { stdio: { ...STDIO_LAUNCH, env: { DATABASE_URL: 'postgres://db.internal/events?user=events&password=s3cret' } } } });
    const inQuery = await browser.call('GET', '/api/connect-info');
    expect((inQuery.body as { stdio: { env: Record<string, string> } }).stdio.env).toEqual({
      DATABASE_URL: 'postgres://db.internal/events?user=events&password=<password>',
    });

    // Reached under a public name, the site does not show where its checkout or database is.
    const publicAnswer = await app.request('https://events.example.org/api/connect-info');
    expect(await publicAnswer.json()).toEqual({ mcpUrl: 'https://events.example.org/mcp', stdio: null });
  });
});

describe.each(dialects)('access tokens in the domain on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let services: EventsServices;

  beforeEach(async () => {
    fixture = await open();
    services = createEventsServices({ db: fixture.db, now: createTestClock().now });
  });
  afterEach(async () => {
    await fixture.close();
  });

  const newPerson = async () => (await signedUpSession({ db: fixture.db, now: createTestClock().now })).principal;

  async function created(principal: Principal, label: string) {
    const result = await services.createAccessToken(principal, { label });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return result.value;
  }

  it('acts as the creating account until revoked, for that account only', async () => {
    const person = await newPerson();
    const other = await newPerson();
    const { token, accessToken } = await created(person, 'Claude Desktop');

    const principal = await principalOfToken(services, token);
    expect(principal).toEqual({
      id: person.id,
      kind: 'token',
      ref: accessToken.id,
      account: person.account,
      scope: PREPARE_EFFECTS,
      clientName: 'Claude Desktop',
    });
    expect(principal?.account).not.toEqual(other.account);
    expect(await services.listAccessTokens(other)).toEqual([]);
    expect(await services.revokeAccessToken(other, accessToken.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await principalOfToken(services, token)).not.toBeNull();

    expect(await services.revokeAccessToken(person, accessToken.id)).toMatchObject({ ok: true });
    expect(await principalOfToken(services, token)).toBeNull();
    expect(await services.listAccessTokens(person)).toEqual([]);
  });

  it('lets no token create or revoke tokens (FORBIDDEN)', async () => {
    const person = await newPerson();
    const { token, accessToken } = await created(person, 'Claude Desktop');
    const asToken = (await principalOfToken(services, token)) as Principal;

    expect(await services.createAccessToken(asToken, { label: 'More' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(await services.revokeAccessToken(asToken, accessToken.id)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await services.listAccessTokens(person)).map((listed) => listed.label)).toEqual(['Claude Desktop']);
  });

  it('asks an anonymous visitor to sign in (UNAUTHENTICATED) and lists them nothing', async () => {
    const visitor = (await visitorSession({ db: fixture.db, now: createTestClock().now })).principal;
    expect(await services.createAccessToken(visitor, { label: 'Claude Desktop' })).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await services.listAccessTokens(visitor)).toEqual([]);
    expect(await fixture.db.selectFrom('agentready_access_token').select('id').execute()).toEqual([]);
  });

  it('creates no more than 20 for one account, even when 25 creations run at once', async () => {
    const person = await newPerson();
    const results = await Promise.all(Array.from({ length: 25 }, (_, index) => services.createAccessToken(person, { label: `Agent ${index}` })));
    expect(results.filter((result) => result.ok)).toHaveLength(20);
    expect(results.filter((result) => !result.ok).map((result) => (result.ok ? '' : result.code))).toEqual(Array(5).fill('CONFLICT'));
    expect(await services.listAccessTokens(person)).toHaveLength(20);
  });
});

describe('a person on /connect', () => {
  let server: EventsServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startEventsServer({ app: { connection: { stdio: STDIO_LAUNCH } } });
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    // Tokens belong to an account: the person is signed in.
    const person = await openSitePerson(server.url);
    await context.addCookies([{ name: 'ar_session', value: person.cookie.slice('ar_session='.length), url: server.url }]);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  it('creates a token by clicking, sees it once in both examples, no longer after a reload, and revokes it', async () => {
    await signUpInBrowser(context, server.url);
    await page.goto(`${server.url}/`);
    await page.click(byTestId('nav-connect'));
    await page.waitForURL(`${server.url}/connect`);
    await page.locator(byTestId('tokens-empty')).waitFor();
    expect(await page.textContent(byTestId('connect-abilities'))).toContain('cannot register or cancel');
    expect(await page.textContent(byTestId('stdio-config'))).toContain('<your token>');

    await page.fill(byTestId('token-label'), 'Claude Desktop');
    await page.click(byTestId('create-token'));
    const tokenField = page.locator(byTestId('new-token-value'));
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).toMatch(TOKEN_SHAPE);
    expect(await tokenField.getAttribute('readonly')).not.toBeNull();
    expect(await page.textContent(byTestId('new-token-warning'))).toContain('will not be shown again');

    const httpConfig = JSON.parse((await page.textContent(byTestId('http-config'))) ?? '') as unknown;
    expect(httpConfig).toEqual({
      mcpServers: { 'agentready-events': { type: 'http', url: `${server.url}/mcp`, headers: { Authorization: `Bearer ${token}` } } },
    });
    const stdioConfig = JSON.parse((await page.textContent(byTestId('stdio-config'))) ?? '') as unknown;
    expect(stdioConfig).toEqual({
      mcpServers: {
        'agentready-events': { command: 'node', args: STDIO_LAUNCH.args, env: { AGENTREADY_EVENTS_TOKEN: token, SITE_URL: server.url } },
      },
    });

    await page.click(byTestId('copy-token'));
    await page.locator(`${byTestId('copy-token-status')}:text-is("Copied.")`).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const listed = page.locator(byTestId('token-item'));
    await listed.filter({ hasText: 'Claude Desktop' }).waitFor();
    expect(await listed.count()).toBe(1);
    expect(await listed.locator(byTestId('token-last-used')).textContent()).toBe('never');

    // The agent uses the token once; the person sees when.
    const services = createEventsServices({ db: server.db, now: () => new Date() });
    expect(await principalOfToken(services, token)).not.toBeNull();

    await page.reload();
    await listed.filter({ hasText: 'Claude Desktop' }).waitFor();
    expect(await listed.locator(byTestId('token-last-used')).textContent()).toMatch(/^\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(\+08:00\)$/);
    expect(await page.locator(byTestId('new-token')).isVisible()).toBe(false);
    expect(await page.content()).not.toContain(token);
    expect(await page.textContent(byTestId('http-config'))).toContain('Bearer <your token>');

    await listed.locator(byTestId('revoke-button')).click();
    const dialog = page.locator(byTestId('revoke-dialog'));
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Claude Desktop');
    await page.click(byTestId('dialog-keep-token'));
    await dialog.waitFor({ state: 'hidden' });
    expect(await listed.count()).toBe(1);

    await listed.locator(byTestId('revoke-button')).click();
    await page.click(byTestId('dialog-confirm-revoke'));
    await page.locator(byTestId('revoke-success')).waitFor();
    await page.locator(byTestId('tokens-empty')).waitFor();
    expect(await listed.count()).toBe(0);
    expect(await principalOfToken(services, token)).toBeNull();
  });

  it('says what is wrong with a name and creates nothing', async () => {
    await signUpInBrowser(context, server.url);
    await page.goto(`${server.url}/connect`);
    await page.locator(byTestId('tokens-empty')).waitFor();
    await page.fill(byTestId('token-label'), '   ');
    await page.click(byTestId('create-token'));
    const error = page.locator(byTestId('create-token-error'));
    await error.waitFor();
    expect(await error.textContent()).toBe('Give the token a name, e.g. "Claude Desktop".');
    expect(await page.locator(byTestId('token-label')).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(byTestId('new-token')).isVisible()).toBe(false);
    expect(await page.locator(byTestId('token-item')).count()).toBe(0);
  });
});
