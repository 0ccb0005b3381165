/**
 * @module The sweep of what has expired, on SQLite and PostgreSQL: expired
 * sessions (with an anonymous visitor's saved events), expired and revoked
 * tokens, expired confirmation intents and old drafts go, through
 * `app.identity.sweep()` and through the real `agentready-events sweep`
 * command; live ones stay.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { IdentityPerson } from './support/identity-person.ts';

const EVENTS_BIN = fileURLToPath(new URL('../bin/agentready-events.mjs', import.meta.url));
const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
const DAY = 24 * 3600_000;

const dialects = await storeDialects('the identity sweep tests');

/** What the arrangement left, live and expired, to look for after the sweep. */
type Arranged = {
  person: IdentityPerson;
  liveVisitor: IdentityPerson;
  oldVisitorCookie: string;
  liveTokenLabel: string;
  rowsBefore: Record<string, number>;
};

/** Rows of the tables a sweep clears, counted in the database. */
async function rowCounts(fixture: DatabaseFixture): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['agentready_session', 'agentready_access_token', 'confirmation_intents', 'registration_drafts', 'saved_events'] as const) {
    const row = await fixture.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}

/**
 * Long ago (100 days before the real now, past every lifetime): a person signs
 * up, makes a token and a draft and asks for an intent; a visitor saves an
 * event. A minute ago: the person signs in again and makes a live token
 * (and one revoked), a draft and an intent; another visitor saves an event.
 */
async function arrange(app: EventsApp, clock: TestClock, fixture: DatabaseFixture): Promise<Arranged> {
  const realNow = Date.now();
  clock.set(new Date(realNow - 100 * DAY).toISOString());
  const person = await new IdentityPerson(() => app).signUp();
  expect((await person.call('POST', '/api/access-tokens', { label: 'Old token' })).status).toBe(201);
  const oldDraft = await person.call('POST', '/api/tools/prepare_event_registration', { event_id: OPEN_EVENT, name: 'Old Draft' });
  expect(oldDraft.body, oldDraft.text).toMatchObject({ ok: true });
  expect((await person.call('POST', '/api/confirmation-intents', { action: 'register', target_id: OPEN_EVENT })).status).toBe(200);
  const oldVisitor = new IdentityPerson(() => app);
  await oldVisitor.openSession();
  expect((await oldVisitor.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);

  // A minute ago: within a confirmation intent's five minutes, even for a command started a few seconds later.
  clock.set(new Date(realNow - 60_000).toISOString());
  person.cookie = null;
  expect((await person.signIn()).status).toBe(200);
  expect((await person.call('POST', '/api/access-tokens', { label: 'Live token' })).status).toBe(201);
  const revoked = await person.call('POST', '/api/access-tokens', { label: 'Revoked token' });
  expect((await person.call('DELETE', `/api/access-tokens/${(revoked.body as { accessToken: { id: string } }).accessToken.id}`)).status).toBe(200);
  const liveDraft = await person.call('POST', '/api/tools/prepare_event_registration', { event_id: OTHER_EVENT, name: 'Live Draft' });
  expect(liveDraft.body, liveDraft.text).toMatchObject({ ok: true });
  expect((await person.call('POST', '/api/confirmation-intents', { action: 'register', target_id: OTHER_EVENT })).status).toBe(200);
  const liveVisitor = new IdentityPerson(() => app);
  await liveVisitor.openSession();
  expect((await liveVisitor.call('POST', '/api/saved', { event_id: OTHER_EVENT })).status).toBe(200);
  // What the OAuth server keeps (codes, tokens, grants) carries its own expiry: one past it, one not.
  const artifact = (id: string, expiresAt: number) => ({
    model: 'AccessToken',
    id,
    payload: '{}',
    grant_id: null,
    uid: null,
    user_code: null,
    account_id: null,
    expires_at: expiresAt,
    consumed_at: null,
    last_used_at: null,
  });
  await fixture.db.insertInto('agentready_oauth_artifact').values([artifact('expired-token', realNow - DAY), artifact('live-token', realNow + DAY)]).execute();
  return { person, liveVisitor, oldVisitorCookie: oldVisitor.cookie!, liveTokenLabel: 'Live token', rowsBefore: await rowCounts(fixture) };
}

/** Checks that what expired is gone from the database and what lives still works. */
async function expectOnlyLiveLeft(arranged: Arranged, fixture: DatabaseFixture): Promise<void> {
  const after = await rowCounts(fixture);
  // Gone: the person's old session and the old visitor's (with its saved event); the old and the revoked token; the old intent; the old draft.
  expect(after).toEqual({
    agentready_session: arranged.rowsBefore['agentready_session']! - 2,
    agentready_access_token: arranged.rowsBefore['agentready_access_token']! - 2,
    confirmation_intents: arranged.rowsBefore['confirmation_intents']! - 1,
    registration_drafts: arranged.rowsBefore['registration_drafts']! - 1,
    saved_events: arranged.rowsBefore['saved_events']! - 1,
  });
  const tokens = (await arranged.person.call('GET', '/api/access-tokens')).body as { accessTokens: Array<{ label: string }> };
  expect(tokens.accessTokens.map((token) => token.label)).toEqual([arranged.liveTokenLabel]);
  expect((await arranged.person.call('GET', `/api/events/${OTHER_EVENT}/registration-draft`)).body).toMatchObject({ draft: { name: 'Live Draft' } });
  expect(await arranged.liveVisitor.savedEventIds()).toEqual([OTHER_EVENT]);
  expect((await arranged.person.openSession()).signedIn).toBe(true);
}

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('sweeping on %s', (_name, dialect) => {
  let fixture: DatabaseFixture | undefined;
  let app: EventsApp | undefined;

  afterEach(async () => {
    await app?.closeMcp();
    await fixture?.close();
    fixture = undefined;
    app = undefined;
  });

  async function openSite(): Promise<{ app: EventsApp; clock: TestClock; fixture: DatabaseFixture }> {
    fixture = await dialect.open();
    const clock = createTestClock();
    app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }) });
    return { app, clock, fixture };
  }

  it('app.identity.sweep() removes what expired and keeps what lives', async () => {
    const site = await openSite();
    const arranged = await arrange(site.app, site.clock, site.fixture);
    site.clock.set(new Date().toISOString());
    const report = await site.app.identity.sweep();
    expect(report).toEqual({ sessions: 2, accessTokens: 2, confirmationIntents: 1, registrationDrafts: 1, oauthArtifacts: 1 });
    await expectOnlyLiveLeft(arranged, site.fixture);
    expect(await site.app.identity.sweep()).toEqual({ sessions: 0, accessTokens: 0, confirmationIntents: 0, registrationDrafts: 0, oauthArtifacts: 0 });
  });

  it('agentready-events sweep does the same on the database DATABASE_URL names, and says what it removed', async () => {
    const site = await openSite();
    const arranged = await arrange(site.app, site.clock, site.fixture);
    const ran = await runSweepCommand(site.fixture.url);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ swept: { sessions: 2, accessTokens: 2, confirmationIntents: 1, registrationDrafts: 1, oauthArtifacts: 1 } });
    site.clock.set(new Date().toISOString());
    await expectOnlyLiveLeft(arranged, site.fixture);
  });
});

/** Runs `agentready-events sweep` as an operator's cron job does, on `databaseUrl`. */
async function runSweepCommand(databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [EVENTS_BIN, 'sweep'], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
