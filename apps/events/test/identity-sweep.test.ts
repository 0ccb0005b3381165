/**
 * @module The sweep of what has expired, on SQLite and PostgreSQL: expired
 * sessions (with an anonymous visitor's saved events), expired and revoked
 * access tokens, expired and used confirmation tokens, old drafts and
 * idempotency records past their retention, and audit records older than
 * AUDIT_RETENTION_DAYS (default 90) go, through `app.identity.sweep()` and
 * through the real `agentready-events sweep` command; live ones stay (a live
 * draft still fills the page, a live commit's retry is still answered from
 * its record, the calls of a minute ago keep their evidence). The command
 * refuses a retention that is not a whole number of days and touches nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { commitBodyOf, type PersonConfirmation } from './support/app-visitor.ts';
import { IdentityPerson } from './support/identity-person.ts';
import { runEventsCommand, type EventsCommandRun } from './support/events-command.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
/** Open: registered for long ago. */
const OLD_COMMIT_EVENT = 'evt-webmcp-confirmation-patterns';
/** Open: registered for a minute ago. */
const LIVE_COMMIT_EVENT = 'evt-python-data-banqiao';
const DAY = 24 * 3600_000;

const dialects = await storeDialects('the identity sweep tests');

/** What the arrangement left, live and expired, to look for after the sweep. */
type Arranged = {
  person: IdentityPerson;
  liveVisitor: IdentityPerson;
  oldVisitorCookie: string;
  liveTokenLabel: string;
  /** The registration commit of a minute ago: its body and key, to retry it after the sweep. */
  liveCommit: { body: unknown; key: string; registrationId: string };
  rowsBefore: Record<string, number>;
  /** Audit records of the calls made 100 days ago, and of those made a minute ago. */
  audit: { old: number; live: number };
};

/** Audit records that occurred before `instant`, and from it on. */
async function auditCounts(fixture: DatabaseFixture, instant: number): Promise<{ old: number; live: number }> {
  const rows = await fixture.db.selectFrom('agentready_audit_record').select('occurred_at').execute();
  const old = rows.filter((row) => Date.parse(row.occurred_at) < instant).length;
  return { old, live: rows.length - old };
}

/** Rows of the tables a sweep clears, counted in the database. */
async function rowCounts(fixture: DatabaseFixture): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables = [
    'agentready_session',
    'agentready_access_token',
    'agentready_confirmation',
    'agentready_draft',
    'agentready_idempotency_record',
    'saved_events',
  ] as const;
  for (const table of tables) {
    const row = await fixture.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}

/** The person's confirmation of a registration, as the register page's Submit asks for it (201 expected). */
async function confirmRegistration(person: IdentityPerson, eventId: string, name: string): Promise<PersonConfirmation> {
  const answer = await person.call('POST', '/api/confirmations', { action: 'register', event_id: eventId, name, email: 'sweep@example.com' });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as unknown as PersonConfirmation;
}

/** `POST /api/registrations` with the person's cookie and CSRF token and `Idempotency-Key: key`: status, header `Idempotent-Replayed`, body. */
async function commitRegistration(app: EventsApp, person: IdentityPerson, body: unknown, key: string) {
  const response = await app.request('/api/registrations', {
    method: 'POST',
    headers: { cookie: `ar_session=${person.cookie}`, 'x-csrf-token': person.csrfToken ?? '', 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: response.status, replayedHeader: response.headers.get('idempotent-replayed'), body: (await response.json()) as Record<string, unknown> };
}

/** Confirms and registers under a new key, as the register page does (201 expected); answers what a retry resends. */
async function registerWithKey(app: EventsApp, person: IdentityPerson, eventId: string): Promise<Arranged['liveCommit']> {
  const body = commitBodyOf(await confirmRegistration(person, eventId, 'Committed'));
  const key = randomUUID();
  const answer = await commitRegistration(app, person, body, key);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { body, key, registrationId: (answer.body as { registration: { id: string } }).registration.id };
}

/**
 * Long ago (100 days before the real now, past every lifetime): a person signs
 * up, makes a token and a draft, confirms that draft (a token never used) and
 * registers for another event under an idempotency key (a used token, a
 * record); a visitor saves an event. A minute ago: the person signs in again
 * and makes a live token (and one revoked), a draft and its confirmation, and
 * registers under a key; another visitor saves an event.
 */
async function arrange(app: EventsApp, clock: TestClock, fixture: DatabaseFixture): Promise<Arranged> {
  const realNow = Date.now();
  clock.set(new Date(realNow - 100 * DAY).toISOString());
  const person = await new IdentityPerson(() => app).signUp();
  expect((await person.call('POST', '/api/access-tokens', { label: 'Old token' })).status).toBe(201);
  const oldDraft = await person.call('POST', '/api/tools/prepare_event_registration', { event_id: OPEN_EVENT, name: 'Old Draft' });
  expect(oldDraft.body, oldDraft.text).toMatchObject({ ok: true });
  await confirmRegistration(person, OPEN_EVENT, 'Old Draft');
  await registerWithKey(app, person, OLD_COMMIT_EVENT);
  const oldVisitor = new IdentityPerson(() => app);
  await oldVisitor.openSession();
  expect((await oldVisitor.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);

  // A minute ago: within a confirmation token's ten minutes, even for a command started a few seconds later.
  clock.set(new Date(realNow - 60_000).toISOString());
  person.cookie = null;
  expect((await person.signIn()).status).toBe(200);
  expect((await person.call('POST', '/api/access-tokens', { label: 'Live token' })).status).toBe(201);
  const revoked = await person.call('POST', '/api/access-tokens', { label: 'Revoked token' });
  expect((await person.call('DELETE', `/api/access-tokens/${(revoked.body as { accessToken: { id: string } }).accessToken.id}`)).status).toBe(200);
  const liveDraft = await person.call('POST', '/api/tools/prepare_event_registration', { event_id: OTHER_EVENT, name: 'Live Draft' });
  expect(liveDraft.body, liveDraft.text).toMatchObject({ ok: true });
  await confirmRegistration(person, OTHER_EVENT, 'Live Draft');
  const liveCommit = await registerWithKey(app, person, LIVE_COMMIT_EVENT);
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
  await fixture.db
    .insertInto('agentready_oauth_artifact')
    .values([artifact('expired-token', realNow - DAY), artifact('live-token', realNow + DAY)])
    .execute();
  const audit = await auditCounts(fixture, realNow - 90 * DAY);
  // The old draft, confirmation and commit each left evidence, and so did the live ones.
  expect(audit.old).toBeGreaterThanOrEqual(3);
  expect(audit.live).toBeGreaterThanOrEqual(3);
  return { person, liveVisitor, oldVisitorCookie: oldVisitor.cookie!, liveTokenLabel: 'Live token', liveCommit, rowsBefore: await rowCounts(fixture), audit };
}

/** Checks that what expired is gone from the database and what lives still works. */
async function expectOnlyLiveLeft(app: EventsApp, arranged: Arranged, fixture: DatabaseFixture): Promise<void> {
  const after = await rowCounts(fixture);
  // Gone: the person's old session and the old visitor's (with its saved event); the old and the revoked access token;
  // the old unused confirmation token and the two used ones (old and live); the old draft (the committed ones went
  // with their commits); the old commit's idempotency record.
  expect(after).toEqual({
    agentready_session: arranged.rowsBefore['agentready_session']! - 2,
    agentready_access_token: arranged.rowsBefore['agentready_access_token']! - 2,
    agentready_confirmation: arranged.rowsBefore['agentready_confirmation']! - 3,
    agentready_draft: arranged.rowsBefore['agentready_draft']! - 1,
    agentready_idempotency_record: arranged.rowsBefore['agentready_idempotency_record']! - 1,
    saved_events: arranged.rowsBefore['saved_events']! - 1,
  });
  const tokens = (await arranged.person.call('GET', '/api/access-tokens')).body as { accessTokens: Array<{ label: string }> };
  expect(tokens.accessTokens.map((token) => token.label)).toEqual([arranged.liveTokenLabel]);
  expect((await arranged.person.call('GET', `/api/events/${OTHER_EVENT}/registration-draft`)).body).toMatchObject({ draft: { name: 'Live Draft' } });
  expect(await arranged.liveVisitor.savedEventIds()).toEqual([OTHER_EVENT]);
  // The live commit's record still answers its retry: the same registration, replayed, nothing registered twice.
  const { body, key, registrationId } = arranged.liveCommit;
  const retried = await commitRegistration(app, arranged.person, body, key);
  expect(retried).toMatchObject({
    status: 201,
    replayedHeader: 'true',
    body: { registration: { id: registrationId, event: { id: LIVE_COMMIT_EVENT } }, replayed: true },
  });
  const registrations = (await arranged.person.call('GET', '/api/registrations')).body as { registrations: Array<{ id: string; event: { id: string } }> };
  expect(registrations.registrations.map((registration) => registration.event.id).sort()).toEqual([OLD_COMMIT_EVENT, LIVE_COMMIT_EVENT].sort());
  expect((await arranged.person.openSession()).signedIn).toBe(true);
  // The evidence of a minute ago stays; the old is gone.
  expect(await auditCounts(fixture, Date.now() - 90 * DAY)).toMatchObject({ old: 0 });
  expect((await auditCounts(fixture, Date.now() - 90 * DAY)).live).toBeGreaterThanOrEqual(arranged.audit.live);
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
    expect(report).toEqual({
      sessions: 2,
      accessTokens: 2,
      confirmationTokens: 3,
      drafts: 1,
      idempotencyRecords: 1,
      oauthArtifacts: 1,
      auditRecords: arranged.audit.old,
    });
    await expectOnlyLiveLeft(site.app, arranged, site.fixture);
    expect(await site.app.identity.sweep()).toEqual({
      sessions: 0,
      accessTokens: 0,
      confirmationTokens: 0,
      drafts: 0,
      idempotencyRecords: 0,
      oauthArtifacts: 0,
      auditRecords: 0,
    });
  });

  it('agentready-events sweep does the same on the database DATABASE_URL names, and says what it removed', async () => {
    const site = await openSite();
    const arranged = await arrange(site.app, site.clock, site.fixture);
    const ran = await runSweepCommand(site.fixture.url);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      swept: { sessions: 2, accessTokens: 2, confirmationTokens: 3, drafts: 1, idempotencyRecords: 1, oauthArtifacts: 1, auditRecords: arranged.audit.old },
    });
    site.clock.set(new Date().toISOString());
    await expectOnlyLiveLeft(site.app, arranged, site.fixture);
  });

  it('agentready-events sweep keeps audit records for AUDIT_RETENTION_DAYS days', async () => {
    const site = await openSite();
    const arranged = await arrange(site.app, site.clock, site.fixture);
    // 101 days: the evidence of 100 days ago is still within it.
    const kept = await runSweepCommand(site.fixture.url, { AUDIT_RETENTION_DAYS: '101' });
    expect(kept.code, kept.stderr).toBe(0);
    expect(JSON.parse(kept.stdout)).toMatchObject({ swept: { auditRecords: 0 } });
    expect(await auditCounts(site.fixture, Date.now() - 90 * DAY)).toEqual(arranged.audit);
    const swept = await runSweepCommand(site.fixture.url, { AUDIT_RETENTION_DAYS: '99' });
    expect(JSON.parse(swept.stdout)).toMatchObject({ swept: { auditRecords: arranged.audit.old } });
    expect(await auditCounts(site.fixture, Date.now() - 90 * DAY)).toMatchObject({ old: 0 });
  });
});

describe('agentready-events sweep with a retention it cannot take', () => {
  it('says what AUDIT_RETENTION_DAYS must be, exits 2 and opens no database', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'events-sweep-'));
    try {
      const url = `file:${join(folder, 'events.sqlite')}`;
      for (const refused of ['0', 'ninety']) {
        const ran = await runSweepCommand(url, { AUDIT_RETENTION_DAYS: refused });
        expect(ran.code, ran.stdout).toBe(2);
        expect(ran.stderr.trim()).toBe('AUDIT_RETENTION_DAYS must be a whole number from 1 to 36500.');
        expect(ran.stdout).toBe('');
      }
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** Runs `agentready-events sweep` as an operator's cron job does, on `databaseUrl`, with `env` besides. */
function runSweepCommand(databaseUrl: string, env: Record<string, string> = {}): Promise<EventsCommandRun> {
  return runEventsCommand(['sweep'], { DATABASE_URL: databaseUrl, ...env });
}
