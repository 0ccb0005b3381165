/**
 * The events domain on SQLite and on PostgreSQL: the same rules, the same
 * answers. An unreachable PostgreSQL fails the run unless the person running
 * it opts out with AGENTREADY_SKIP_POSTGRES=1.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import type { CommitRequest } from '../src/domain/registrations.ts';
import type { Principal } from 'agentready';
import { createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { TEST_PASSWORD } from './support/app-visitor.ts';
import { signedUpSession, visitorSession } from './support/signed-in-principal.ts';

const dialects = await storeDialects('the events domain tests');

describe.each(dialects)('events domain on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let clock: TestClock;
  let services: EventsServices;

  beforeEach(async () => {
    fixture = await open();
    clock = createTestClock();
    services = createEventsServices({ db: fixture.db, now: clock.now });
  });
  afterEach(async () => {
    await fixture.close();
  });

  /** A person who signed up: registrations, confirmations and drafts need an account. */
  async function newPrincipal(): Promise<Principal> {
    return (await signedUpSession({ db: fixture.db, now: clock.now })).principal;
  }

  async function ids(filters: Parameters<EventsServices['searchEvents']>[0]): Promise<string[]> {
    const result = await services.searchEvents(filters);
    if (!result.ok) throw new Error(result.message);
    return result.value.events.map((event) => event.id);
  }

  async function remaining(eventId: string): Promise<number> {
    const row = await fixture.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
    return row.remaining_capacity;
  }

  async function activeRegistrations(eventId: string): Promise<number> {
    const row = await fixture.db
      .selectFrom('registrations')
      .innerJoin('events', 'events.id', 'registrations.event_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('events.public_id', '=', eventId)
      .where('registrations.status', '=', 'active')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The person's confirmation of a registration, as their Submit on the register page asks for it (expects success). */
  async function confirmRegistration(
    principal: Principal,
    eventId: string,
    attendee = { name: 'Attendee', email: 'attendee@example.com' },
  ): Promise<CommitRequest> {
    const confirmed = await services.confirmRegistration(principal, { eventId, ...attendee });
    if (!confirmed.ok) throw new Error(`${confirmed.code}: ${confirmed.message}`);
    return { draftId: confirmed.value.draft.id, draftVersion: confirmed.value.draft.version, confirmationToken: confirmed.value.confirmationToken };
  }

  /** The person's confirmation in the cancel dialog (expects success). */
  async function confirmCancellation(principal: Principal, registrationId: string): Promise<CommitRequest & { registrationId: string }> {
    const confirmed = await services.confirmCancellation(principal, registrationId);
    if (!confirmed.ok) throw new Error(`${confirmed.code}: ${confirmed.message}`);
    return {
      registrationId,
      draftId: confirmed.value.draft.id,
      draftVersion: confirmed.value.draft.version,
      confirmationToken: confirmed.value.confirmationToken,
    };
  }

  it('finds a part of a Chinese word, case-insensitively, across title, summary and venue', async () => {
    expect(await ids({ keyword: '入門' })).toEqual(['evt-webmcp-intro', 'evt-python-data-banqiao', 'evt-chip-design-talk-hsinchu']);
    expect(await ids({ keyword: 'webmcp' })).toEqual(['evt-webmcp-intro', 'evt-webmcp-confirmation-patterns', 'evt-taipei-web-conf-2027']);
    expect(await ids({ keyword: 'WORKSHOP', location: 'yilan' })).toEqual(['evt-night-sky-photography-yilan']);
    expect(await ids({ keyword: '南港' })).toEqual(['evt-graphql-meetup-nangang', 'evt-sre-incident-workshop-nangang']);
    expect(await ids({ keyword: '入門 python' })).toEqual(['evt-python-data-banqiao']);
  });

  it('matches LIKE wildcards literally', async () => {
    for (const keyword of ['%', '_', '\\', '100%']) {
      const result = await services.searchEvents({ keyword });
      expect(result).toMatchObject({ ok: true, value: { total: 0, events: [] } });
    }
  });

  it('refuses a keyword with a NUL or another control character, naming the field', async () => {
    for (const keyword of ['a\u0000b', '\u0000', 'bell\u0007']) {
      expect(await services.searchEvents({ keyword }), JSON.stringify(keyword)).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'keyword' });
    }
  });

  it('combines filters into different result sets', async () => {
    expect(await ids({ keyword: '工作坊', location: 'taipei' })).toEqual([
      'evt-webmcp-intro',
      'evt-webmcp-confirmation-patterns',
      'evt-typescript-type-level',
      'evt-kids-coding-library',
    ]);
    expect(await ids({ keyword: '工作坊', location: 'taipei', price: 'free' })).toEqual(['evt-webmcp-intro', 'evt-kids-coding-library']);
    expect(await ids({ keyword: '工作坊', location: 'taipei', price: 'paid' })).toEqual(['evt-webmcp-confirmation-patterns', 'evt-typescript-type-level']);
    expect(await ids({ keyword: '工作坊', level: 'advanced' })).toEqual([
      'evt-webmcp-confirmation-patterns',
      'evt-typescript-type-level',
      'evt-llm-evaluation-hsinchu',
    ]);
    expect(await ids({ location: 'taipei', date_from: '2027-01-23', date_to: '2027-01-23' })).toEqual(['evt-webmcp-intro']);
    expect(await ids({ date_from: '2027-12-01' })).toEqual(['evt-taichung-maker-faire', 'evt-ai-product-design-kaohsiung']);
  });

  it('pages by ten, sorted by start time, with a number total', async () => {
    const first = await services.searchEvents({ keyword: '工作坊' });
    const second = await services.searchEvents({ keyword: '工作坊', page: 2 });
    const third = await services.searchEvents({ keyword: '工作坊', page: 3 });
    if (!first.ok || !second.ok || !third.ok) throw new Error('search failed');
    expect(first.value.total).toBe(14);
    expect(typeof first.value.total).toBe('number');
    expect(first.value.events).toHaveLength(10);
    expect(second.value.events).toHaveLength(4);
    const all = [...first.value.events, ...second.value.events];
    expect(new Set(all.map((event) => event.id)).size).toBe(14);
    const starts = all.map((event) => Date.parse(event.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(third.value.events).toEqual([]);
    expect(third.value.noResultsReason).toContain('past the last page');
  });

  it('refuses a reversed date range, naming the field', async () => {
    expect(await services.searchEvents({ date_from: '2027-03-01', date_to: '2027-02-01' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'date_to',
    });
  });

  it('computes open, full and closed from the clock', async () => {
    const detail = async (id: string) => {
      const result = await services.getEventDetail(null, id);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    };
    expect((await detail('evt-webmcp-intro')).state).toBe('open');
    expect((await detail('evt-accessible-forms-workshop')).state).toBe('full');
    expect((await detail('evt-taipei-web-conf-2027')).state).toBe('closed');
    clock.set('2027-01-22T00:00:00+08:00');
    expect((await detail('evt-webmcp-intro')).state).toBe('closed');
    expect(await services.getEventDetail(null, 'evt-no-such-event')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('keeps one saved row when saving twice, and reports alreadySaved', async () => {
    const principal = await newPrincipal();
    const before = await services.getStateVersion(principal);
    expect(await services.saveEvent(principal, 'evt-webmcp-intro')).toMatchObject({ ok: true, value: { alreadySaved: false, stateVersion: before + 1 } });
    expect(await services.saveEvent(principal, 'evt-webmcp-intro')).toMatchObject({ ok: true, value: { alreadySaved: true, stateVersion: before + 1 } });
    const rows = await fixture.db.selectFrom('saved_events').select('id').execute();
    expect(rows).toHaveLength(1);
    expect(await services.saveEvent(principal, 'evt-nope')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('registers once, lowers capacity by one, and gives the place back on cancel', async () => {
    const principal = await newPrincipal();
    const before = await services.getStateVersion(principal);
    const created = await services.registerForEvent(
      principal,
      await confirmRegistration(principal, 'evt-webmcp-intro', { name: '林美玲', email: 'mei.lin@example.com' }),
    );
    if (!created.ok) throw new Error(created.message);
    expect(created.value.registration.id).toMatch(/^reg-/);
    expect(await remaining('evt-webmcp-intro')).toBe(7);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(1);
    const stored = await fixture.db.selectFrom('registrations').select(['attendee_name', 'attendee_email']).executeTakeFirstOrThrow();
    expect(stored).toEqual({ attendee_name: '林美玲', attendee_email: 'mei.lin@example.com' });
    expect(await services.checkRegistrable(principal, 'evt-webmcp-intro')).toMatchObject({ ok: false, code: 'CONFLICT', reason: 'already_registered' });

    const cancelled = await services.cancelRegistration(principal, await confirmCancellation(principal, created.value.registration.id));
    expect(cancelled).toMatchObject({ ok: true, value: { registration: { status: 'cancelled' }, stateVersion: before + 2 } });
    expect(await remaining('evt-webmcp-intro')).toBe(8);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(0);
    expect(await services.listActiveRegistrations(principal)).toEqual([]);
  });

  it("refuses a name with a control or bidi character at confirmation, and counts a name's length in characters", async () => {
    const principal = await newPrincipal();
    for (const name of ['bell\u0007', 'abc \u202Eevil', 'a\u2066b\u2069', '\u{1F600}'.repeat(101)]) {
      expect(await services.confirmRegistration(principal, { eventId: 'evt-webmcp-intro', name, email: 'mei.lin@example.com' })).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        field: 'name',
      });
    }
    expect(await services.findRegistrationDraft(principal, 'evt-webmcp-intro')).toBeNull();
    expect(await fixture.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);
    const emoji = '\u{1F600}'.repeat(51);
    expect(
      await services.registerForEvent(principal, await confirmRegistration(principal, 'evt-webmcp-intro', { name: emoji, email: 'mei.lin@example.com' })),
    ).toMatchObject({
      ok: true,
    });
    const stored = await fixture.db.selectFrom('registrations').select('attendee_name').executeTakeFirstOrThrow();
    expect(stored.attendee_name).toBe(emoji);
  });

  it('sells the last place once when two people commit at the same moment', async () => {
    const [first, second] = [await newPrincipal(), await newPrincipal()];
    const eventId = 'evt-rust-microcontrollers-hsinchu';
    const requests = await Promise.all([first, second].map(async (principal) => ({ principal, request: await confirmRegistration(principal, eventId) })));
    const results = await Promise.all(requests.map(({ principal, request }) => services.registerForEvent(principal, request)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ code: 'CONFLICT', reason: 'full' });
    expect(await remaining(eventId)).toBe(0);
    expect(await activeRegistrations(eventId)).toBe(1);
  });

  it('registers a person once when they submit twice at the same moment, and refuses a later confirmation as already registered', async () => {
    const principal = await newPrincipal();
    // Two Submits of the same form: the same draft version, two tokens.
    const requests = [await confirmRegistration(principal, 'evt-webmcp-intro'), await confirmRegistration(principal, 'evt-webmcp-intro')];
    expect(requests[1]?.draftVersion).toBe(requests[0]?.draftVersion);
    const results = await Promise.all(requests.map((request) => services.registerForEvent(principal, request)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    // The second finds the confirmed draft gone with the first registration.
    expect(results.find((result) => !result.ok)).toMatchObject({ code: 'CONFLICT', field: 'draft_id' });
    expect(await remaining('evt-webmcp-intro')).toBe(7);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(1);
    // A new confirmation is refused at once: the account is registered.
    expect(await services.confirmRegistration(principal, { eventId: 'evt-webmcp-intro', name: 'Attendee', email: 'attendee@example.com' })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      reason: 'already_registered',
    });
  });

  /** What a commit answers when its token was already used: the token, not some later rule, refuses it. */
  const TOKEN_USED = {
    ok: false,
    code: 'CONFIRMATION_REQUIRED',
    field: 'confirmation_token',
    message: 'This confirmation was already used. Confirm again.',
    nextAction: expect.any(String),
  };

  /**
   * Runs `commits` at once. On PostgreSQL the token rows are held first, so
   * every commit has started and waits to read its token before any may go
   * on. (SQLite runs one transaction at a time.)
   */
  async function atOnce<T>(commits: Array<() => Promise<T>>): Promise<T[]> {
    if (fixture.dialect === 'sqlite') return Promise.all(commits.map((commit) => commit()));
    let running: Promise<T[]> | undefined;
    await fixture.db.transaction().execute(async (trx) => {
      await sql`select id from agentready_confirmation for update`.execute(trx);
      running = Promise.all(commits.map((commit) => commit()));
      // Asked outside the holding transaction: pg_stat_activity stays as first read within one.
      for (;;) {
        const waiting = await sql<{ count: number }>`
          select count(*)::int as count from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like 'select % from "agentready_confirmation" %'`.execute(fixture.db);
        if ((waiting.rows[0]?.count ?? 0) >= commits.length) break;
        await delay(5);
      }
    });
    return running!;
  }

  it('lets one token be used once, even by two concurrent commits', async () => {
    const principal = await newPrincipal();
    const request = await confirmRegistration(principal, 'evt-webmcp-intro');
    const register = () => services.registerForEvent(principal, request);
    const results = await atOnce([register, register]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual(TOKEN_USED);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(1);
    expect(await remaining('evt-webmcp-intro')).toBe(7);
    const used = await fixture.db.selectFrom('agentready_confirmation').select('used_at').execute();
    expect(used.map((row) => row.used_at !== null)).toEqual([true]);
  });

  it('lets one cancel token be used once, even by two concurrent cancels', async () => {
    const principal = await newPrincipal();
    const before = await services.getStateVersion(principal);
    const registered = await services.registerForEvent(principal, await confirmRegistration(principal, 'evt-webmcp-intro'));
    if (!registered.ok) throw new Error(registered.message);
    const request = await confirmCancellation(principal, registered.value.registration.id);
    const cancel = () => services.cancelRegistration(principal, request);
    const results = await atOnce([cancel, cancel]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual(TOKEN_USED);
    expect(await remaining('evt-webmcp-intro')).toBe(8);
    expect(await services.getStateVersion(principal)).toBe(before + 2);
  });

  it('refuses a used token even when what it confirmed was undone since: one click, one registration', async () => {
    const principal = await newPrincipal();
    const request = await confirmRegistration(principal, 'evt-webmcp-intro');
    const first = await services.registerForEvent(principal, request);
    if (!first.ok) throw new Error(first.message);
    const cancelled = await services.cancelRegistration(principal, await confirmCancellation(principal, first.value.registration.id));
    expect(cancelled).toMatchObject({ ok: true });
    expect(await services.registerForEvent(principal, request)).toEqual(TOKEN_USED);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(0);
    expect(await remaining('evt-webmcp-intro')).toBe(8);
  });

  it('rolls the token and the draft back when the commit is refused after consuming it', async () => {
    const principal = await newPrincipal();
    const before = await services.getStateVersion(principal);
    clock.set('2027-01-21T23:58:00+08:00');
    const request = await confirmRegistration(principal, 'evt-webmcp-intro', { name: 'Late Comer', email: 'late@example.com' });
    clock.set('2027-01-22T00:00:30+08:00');
    const refused = await services.registerForEvent(principal, request);
    expect(refused).toMatchObject({ ok: false, code: 'CONFLICT', reason: 'closed' });
    const tokenRow = await fixture.db.selectFrom('agentready_confirmation').select('used_at').executeTakeFirstOrThrow();
    expect(tokenRow.used_at).toBeNull();
    expect(await services.findRegistrationDraft(principal, 'evt-webmcp-intro')).toMatchObject({
      id: request.draftId,
      version: request.draftVersion,
      name: 'Late Comer',
    });
    expect(await remaining('evt-webmcp-intro')).toBe(8);
    expect(await services.getStateVersion(principal)).toBe(before);
  });

  it('stores no secret in clear: cookie, password and confirmation token stay out of the account, session and token rows', async () => {
    const signedUp = await signedUpSession({ db: fixture.db, now: clock.now });
    const request = await confirmRegistration(signedUp.principal, 'evt-webmcp-intro');
    const accounts = await fixture.db.selectFrom('agentready_account').selectAll().execute();
    const sessions = await fixture.db.selectFrom('agentready_session').selectAll().execute();
    const tokens = await fixture.db.selectFrom('agentready_confirmation').selectAll().execute();
    expect(sessions).toHaveLength(1);
    expect(tokens).toHaveLength(1);
    const stored = JSON.stringify([accounts, sessions, tokens]);
    expect(stored).not.toContain(signedUp.cookieValue);
    expect(stored).not.toContain(TEST_PASSWORD);
    expect(stored).not.toContain(request.confirmationToken);
  });

  it('refuses an anonymous visitor a confirmation, a registration and a draft, and stores none', async () => {
    const visitor = (await visitorSession({ db: fixture.db, now: clock.now })).principal;
    const signInToRegister = { ok: false, code: 'UNAUTHENTICATED', message: 'Sign in to register for an event.' };
    expect(await services.confirmRegistration(visitor, { eventId: 'evt-webmcp-intro', name: 'Attendee', email: 'a@example.com' })).toMatchObject({
      ...signInToRegister,
      nextAction: expect.stringContaining('sign in'),
    });
    expect(await services.registerForEvent(visitor, { draftId: 'drf-made-up', draftVersion: 1, confirmationToken: 'x'.repeat(43) })).toMatchObject(
      signInToRegister,
    );
    expect(await services.saveRegistrationDraft(visitor, 'evt-webmcp-intro', { name: 'Attendee' })).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await fixture.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);
    expect(await fixture.db.selectFrom('agentready_draft').select('id').execute()).toEqual([]);
    expect(await activeRegistrations('evt-webmcp-intro')).toBe(0);
    expect(await remaining('evt-webmcp-intro')).toBe(8);
  });
});
