/**
 * Registering and cancelling are commits a person confirmed, run once per
 * idempotency key (docs/mutation-safety.md, docs/events-api.md), through the
 * real HTTP surface of the in-process app on SQLite and on PostgreSQL: what a
 * person notices when a page double-submits, retries a lost answer, reuses a
 * key, holds a stale, foreign, used or expired confirmation, or confirms a
 * registration the agent changed since they opened it; and the evidence one
 * journey (an agent prepares, the person confirms, the commit, a retry) leaves.
 * An unreachable PostgreSQL fails the run unless AGENTREADY_SKIP_POSTGRES=1.
 */
import { randomUUID } from 'node:crypto';
import { findJourney } from 'agentready/runtime';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { AppVisitor, commitBodyOf, type PersonConfirmation } from './support/app-visitor.ts';
import { createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { bodyText } from './support/served-html.ts';

/** Free, open, 8 of 30 places left. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** Open, 37 of 120 places left. */
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
/** Open, one place left. */
const LAST_PLACE_EVENT = 'evt-rust-microcontrollers-hsinchu';
const TEN_MINUTES = 10 * 60 * 1000;
const MEI_LIN = { name: 'Lin Mei', email: 'mei.lin@example.com' };
const OTHER_EMAIL = 'mei@work.example.org';

/** A commit's answer with the headers a retrying page reads. */
type CommitAnswer = { status: number; body: Record<string, unknown>; replayedHeader: string | null; retryAfter: string | null };

const dialects = await storeDialects('the commit safety tests');

describe.each(dialects)('commits on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let clock: TestClock;
  let app: EventsApp;

  beforeEach(async () => {
    fixture = await open();
    clock = createTestClock();
    app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }) });
  });
  afterEach(async () => {
    await app.closeMcp();
    await fixture.close();
  });

  /** A person who opened the site and signed up in their browser. */
  async function signedUpPerson(): Promise<AppVisitor> {
    const person = await new AppVisitor(() => app).start();
    await person.signUp();
    return person;
  }

  /**
   * `POST path` as the page sends a commit: the person's cookie and CSRF
   * token, `body`, and `Idempotency-Key: key` (none when null); answers the
   * status, body and the `Idempotent-Replayed` and `Retry-After` headers.
   */
  async function commit(person: AppVisitor, body: unknown, key: string | null, path = '/api/registrations'): Promise<CommitAnswer> {
    const response = await app.request(path, {
      method: 'POST',
      headers: {
        cookie: `ar_session=${person.cookie}`,
        'x-csrf-token': person.csrfToken ?? '',
        'content-type': 'application/json',
        ...(key !== null && { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      replayedHeader: response.headers.get('idempotent-replayed'),
      retryAfter: response.headers.get('retry-after'),
    };
  }

  /** The agent's prepare call, as the page's WebMCP tool sends it for the person (expects success); answers the draft version. */
  async function agentPrepares(person: AppVisitor, eventId: string, values: { name: string; email: string }): Promise<{ id: string; version: number }> {
    const answer = await person.call('POST', '/api/tools/prepare_event_registration', { event_id: eventId, ...values });
    expect(answer.body, answer.text).toMatchObject({ ok: true });
    return (answer.body as { data: { draft: { id: string; version: number } } }).data.draft;
  }

  async function remaining(eventId: string): Promise<number> {
    const row = await fixture.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
    return row.remaining_capacity;
  }

  /** Every registration row: who is registered for what, and whether it is active. */
  async function registrations() {
    return fixture.db
      .selectFrom('registrations')
      .innerJoin('events', 'events.id', 'registrations.event_id')
      .select(['registrations.public_id', 'events.public_id as event', 'registrations.attendee_email', 'registrations.status'])
      .orderBy('registrations.id')
      .execute();
  }

  /** What a refused commit must leave as it was: places, registrations, tokens (minted, used) and drafts. */
  async function stored() {
    return {
      places: await fixture.db.selectFrom('events').select(['public_id', 'remaining_capacity']).orderBy('public_id').execute(),
      registrations: await registrations(),
      confirmations: await fixture.db.selectFrom('agentready_confirmation').select(['id', 'used_at']).orderBy('id').execute(),
      drafts: await fixture.db.selectFrom('agentready_draft').select(['id', 'version', 'content_hash', 'content']).orderBy('id').execute(),
    };
  }

  const idOf = (answer: CommitAnswer) => (answer.body['registration'] as { id: string }).id;

  describe('the Idempotency-Key header', () => {
    it('is required: without it, or with 7 characters, the commit is refused 400 naming it, and registers nothing', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      const before = await stored();
      for (const key of [null, 'seven77']) {
        const refused = await commit(person, commitBodyOf(confirmation), key);
        expect(refused.status, String(key)).toBe(400);
        expect(refused.body, String(key)).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'idempotency_key' });
        expect(await stored()).toEqual(before);
      }
      // The token was not spent: with a key of 8 characters the same commit registers.
      expect((await commit(person, commitBodyOf(confirmation), 'eight888')).status).toBe(201);
      expect(await remaining(OPEN_EVENT)).toBe(before.places.find((row) => row.public_id === OPEN_EVENT)!.remaining_capacity - 1);
    });

    it('says what a key must be when one is malformed, in words, not as a pattern', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      for (const key of ['seven77', 'x'.repeat(256), 'tab\there-key', 'clé-unique-1']) {
        const refused = await commit(person, commitBodyOf(confirmation), key);
        expect(refused.status, key).toBe(400);
        expect(refused.body['message'], key).toBe(
          'Field "idempotency_key": must be 8 to 255 printable ASCII characters (letters, digits, punctuation, spaces), e.g. a UUID.',
        );
      }
    });

    it('takes the draft ids and versions of the commit tools, and says a bound that excludes itself as such', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      const before = await stored();
      const tooLong = await commit(person, { ...commitBodyOf(confirmation), draft_id: 'd'.repeat(100) }, randomUUID());
      expect(tooLong.body).toMatchObject({ code: 'INVALID_INPUT', field: 'draft_id', message: 'Field "draft_id": too long or too large (at most 80).' });
      const zero = await commit(person, { ...commitBodyOf(confirmation), draft_version: 0 }, randomUUID());
      expect(zero.body).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'draft_version',
        message: 'Field "draft_version": too short or too small (more than 0).',
      });
      expect(await stored()).toEqual(before);
    });

    it('answers a retry of the same commit with the first answer, marked replayed: one registration, one place', async () => {
      const person = await signedUpPerson();
      const placesBefore = await remaining(OPEN_EVENT);
      const body = commitBodyOf(await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }));
      const key = randomUUID();
      const first = await commit(person, body, key);
      expect(first).toMatchObject({ status: 201, replayedHeader: null });
      expect(first.body).not.toHaveProperty('replayed');
      const retry = await commit(person, body, key);
      expect(retry).toMatchObject({ status: 201, replayedHeader: 'true', body: { replayed: true, registration: { id: idOf(first) } } });
      expect({ ...retry.body, replayed: undefined }).toEqual({ ...first.body, replayed: undefined });
      expect(await registrations()).toEqual([{ public_id: idOf(first), event: OPEN_EVENT, attendee_email: MEI_LIN.email, status: 'active' }]);
      expect(await remaining(OPEN_EVENT)).toBe(placesBefore - 1);
    });

    it('registers once when ten commits with the same key arrive at once: each answer is that registration or "in progress, retry after"', async () => {
      const person = await signedUpPerson();
      const placesBefore = await remaining(OPEN_EVENT);
      const body = commitBodyOf(await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }));
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => commit(person, body, key)));
      const rows = await registrations();
      expect(rows).toHaveLength(1);
      expect(await remaining(OPEN_EVENT)).toBe(placesBefore - 1);
      for (const answer of answers) {
        if (answer.status === 201) {
          expect(idOf(answer)).toBe(rows[0]!.public_id);
          expect([null, 'true']).toContain(answer.replayedHeader);
        } else {
          expect(answer).toMatchObject({ status: 409, body: { ok: false, code: 'IN_PROGRESS' } });
          expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        }
      }
      // One of them did it; any other 201 is that answer again, marked replayed.
      expect(answers.filter((answer) => answer.status === 201 && answer.replayedHeader === null)).toHaveLength(1);
    });

    it('refuses the same key with another request 422 IDEMPOTENCY_KEY_REUSED, changing nothing', async () => {
      const person = await signedUpPerson();
      const key = randomUUID();
      const first = commitBodyOf(await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }));
      expect((await commit(person, first, key)).status).toBe(201);
      const other = commitBodyOf(await person.confirmed({ action: 'register', event_id: OTHER_EVENT, ...MEI_LIN }));
      const before = await stored();
      const reused = await commit(person, other, key);
      expect(reused).toMatchObject({ status: 422, body: { ok: false, code: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await stored()).toEqual(before);
      // The other registration's token is untouched: under a key of its own it registers.
      expect((await commit(person, other, randomUUID())).status).toBe(201);
    });

    it('replays a refusal it kept: a place freed since does not turn the retry into a registration', async () => {
      const [person, rival] = [await signedUpPerson(), await signedUpPerson()];
      const body = commitBodyOf(await person.confirmed({ action: 'register', event_id: LAST_PLACE_EVENT, ...MEI_LIN }));
      const rivalsRegistration = idOf(
        await commit(
          rival,
          commitBodyOf(await rival.confirmed({ action: 'register', event_id: LAST_PLACE_EVENT, name: 'Rival', email: 'rival@example.com' })),
          randomUUID(),
        ),
      );
      const key = randomUUID();
      const full = await commit(person, body, key);
      expect(full).toMatchObject({
        status: 409,
        replayedHeader: null,
        body: { ok: false, code: 'CONFLICT', message: 'This event is full: no places are left.' },
      });
      expect((await rival.cancel(rivalsRegistration)).status).toBe(200);
      expect(await remaining(LAST_PLACE_EVENT)).toBe(1);

      const retry = await commit(person, body, key);
      expect(retry).toMatchObject({ status: 409, replayedHeader: 'true', body: { code: 'CONFLICT', message: 'This event is full: no places are left.' } });
      expect(await remaining(LAST_PLACE_EVENT)).toBe(1);
      expect((await registrations()).filter((row) => row.status === 'active')).toEqual([]);
      // The refusal rolled the token back: the same confirmation under a new key takes the freed place.
      expect((await commit(person, body, randomUUID())).status).toBe(201);
      expect(await remaining(LAST_PLACE_EVENT)).toBe(0);
    });

    it('keeps no refusal of the confirmation: the corrected retry under the same key registers', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      const key = randomUUID();
      const wrong = await commit(person, { ...commitBodyOf(confirmation), confirmation_token: `cft_${'A'.repeat(43)}` }, key);
      expect(wrong).toMatchObject({ status: 403, body: { code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' } });
      // Another body under the same key: refused as reused if the refusal had been kept.
      const corrected = await commit(person, commitBodyOf(confirmation), key);
      expect(corrected).toMatchObject({ status: 201, replayedHeader: null });
      expect((await registrations()).map((row) => row.public_id)).toEqual([idOf(corrected)]);
    });
  });

  describe('a confirmation token that is refused, changing nothing', () => {
    it('when it expired: ten minutes after the click', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      clock.advance(TEN_MINUTES);
      const before = await stored();
      const expired = await commit(person, commitBodyOf(confirmation), randomUUID());
      expect(expired).toMatchObject({
        status: 403,
        body: { code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: expect.stringContaining('expired') },
      });
      expect(await stored()).toEqual(before);
    });

    it('when it was used: a second commit under a new key is refused, one registration stays', async () => {
      const person = await signedUpPerson();
      const body = commitBodyOf(await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }));
      const first = await commit(person, body, randomUUID());
      const before = await stored();
      const again = await commit(person, body, randomUUID());
      expect(again).toMatchObject({ status: 403, body: { code: 'CONFIRMATION_REQUIRED', message: expect.stringContaining('already used') } });
      expect(await stored()).toEqual(before);
      expect((await registrations()).map((row) => row.public_id)).toEqual([idOf(first)]);
    });

    it("when it is another account's: refused to the other, still good for its owner", async () => {
      const [owner, other] = [await signedUpPerson(), await signedUpPerson()];
      const body = commitBodyOf(await owner.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }));
      const before = await stored();
      const foreign = await commit(other, body, randomUUID());
      expect(foreign).toMatchObject({
        status: 403,
        body: { code: 'CONFIRMATION_REQUIRED', message: 'This confirmation does not match this request. Confirm again.' },
      });
      expect(await stored()).toEqual(before);
      expect((await commit(owner, body, randomUUID())).status).toBe(201);
    });

    it('when the agent prepared a new version after the person confirmed: 409 naming the current version, nothing registered', async () => {
      const person = await signedUpPerson();
      await agentPrepares(person, OPEN_EVENT, MEI_LIN);
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      expect(confirmation.draft.version).toBe(1);
      expect(await agentPrepares(person, OPEN_EVENT, { ...MEI_LIN, email: OTHER_EMAIL })).toEqual({ id: confirmation.draft.id, version: 2 });
      const before = await stored();
      const stale = await commit(person, commitBodyOf(confirmation), randomUUID());
      expect(stale).toMatchObject({
        status: 409,
        body: { ok: false, code: 'CONFLICT', field: 'draft_version', message: expect.stringContaining('version 2') },
      });
      expect(await stored()).toEqual(before);
      expect(await registrations()).toEqual([]);
    });

    it('when the draft content changed under the same version: 409, and the changed attendee is not registered', async () => {
      const person = await signedUpPerson();
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      const tampered = JSON.stringify({ event_id: OPEN_EVENT, name: MEI_LIN.name, email: 'someone.else@example.net' });
      await fixture.db.updateTable('agentready_draft').set({ content: tampered }).where('id', '=', confirmation.draft.id).execute();
      const before = await stored();
      const changed = await commit(person, commitBodyOf(confirmation), randomUUID());
      expect(changed).toMatchObject({
        status: 409,
        body: { ok: false, code: 'CONFLICT', field: 'draft_version', message: expect.stringContaining('content changed') },
      });
      expect(await stored()).toEqual(before);
      expect(await registrations()).toEqual([]);
    });
  });

  describe('a draft the agent changed after the person opened the page', () => {
    it("refuses the person's confirmation of the version they saw, saying what changed and the version now; nothing minted or overwritten", async () => {
      const person = await signedUpPerson();
      const shown = await agentPrepares(person, OPEN_EVENT, MEI_LIN);
      // The page the person opened: the agent's values, and the version.
      const page = await person.call('GET', `/events/${OPEN_EVENT}/register`);
      expect(bodyText(page.text)).toContain('(Draft version 1.)');
      expect((await person.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`)).body).toMatchObject({ draft: { ...shown, email: MEI_LIN.email } });

      await agentPrepares(person, OPEN_EVENT, { ...MEI_LIN, email: OTHER_EMAIL });
      const refused = await person.confirm({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN, draft_id: shown.id, draft_version: shown.version });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        ok: false,
        code: 'CONFLICT',
        field: 'draft_version',
        message: 'Your agent changed this registration after you opened it (e-mail changed): it is now version 2.',
      });
      expect(await fixture.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);
      expect((await person.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`)).body).toMatchObject({
        draft: { id: shown.id, version: 2, email: OTHER_EMAIL },
      });
      expect(bodyText((await person.call('GET', `/events/${OPEN_EVENT}/register`)).text)).toContain('(Draft version 2.)');
    });
  });

  describe('the draft the page showed', () => {
    it('is named by id and version together: an id without its version is refused 400 and nothing is minted or overwritten', async () => {
      const person = await signedUpPerson();
      const shown = await agentPrepares(person, OPEN_EVENT, MEI_LIN);
      const before = await stored();
      const refused = await person.confirm({ action: 'register', event_id: OPEN_EVENT, name: MEI_LIN.name, email: OTHER_EMAIL, draft_id: shown.id });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', field: 'draft_version' });
      expect(await stored()).toEqual(before);
    });
  });

  describe('the attendee a commit registers', () => {
    it('is the one the person confirmed, read from the stored draft; a commit naming an attendee is refused', async () => {
      const person = await signedUpPerson();
      await agentPrepares(person, OPEN_EVENT, { ...MEI_LIN, email: OTHER_EMAIL });
      // The person corrects the e-mail on the page and confirms: their values become version 2.
      const confirmation = await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN });
      expect(confirmation.draft.version).toBe(2);
      const smuggled = await commit(person, { ...commitBodyOf(confirmation), email: 'agent@example.net' }, randomUUID());
      expect(smuggled).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', field: 'email' } });
      const registered = await commit(person, commitBodyOf(confirmation), randomUUID());
      expect(registered.status).toBe(201);
      expect(await registrations()).toEqual([{ public_id: idOf(registered), event: OPEN_EVENT, attendee_email: MEI_LIN.email, status: 'active' }]);
    });

    it("can only be confirmed from the person's browser session: an access token sent to the confirmation endpoint mints nothing", async () => {
      const person = await signedUpPerson();
      const accessToken = ((await person.call('POST', '/api/access-tokens', { label: 'Desk agent' })).body as { token: string }).token;
      const response = await app.request('/api/confirmations', {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN }),
      });
      expect(response.status).toBe(401);
      expect(await fixture.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);
      expect(await fixture.db.selectFrom('agentready_draft').select('id').execute()).toEqual([]);
    });
  });

  describe('cancelling', () => {
    it('twice with the same key cancels once, gives the place back once, and says the second answer is a replay', async () => {
      const person = await signedUpPerson();
      const registrationId = idOf(
        await commit(person, commitBodyOf(await person.confirmed({ action: 'register', event_id: OPEN_EVENT, ...MEI_LIN })), randomUUID()),
      );
      const placesBefore = await remaining(OPEN_EVENT);
      const body = commitBodyOf(await person.confirmed({ action: 'cancel', registration_id: registrationId }));
      const path = `/api/registrations/${registrationId}/cancel`;
      const key = randomUUID();
      const first = await commit(person, body, key, path);
      const second = await commit(person, body, key, path);
      expect(first).toMatchObject({ status: 200, replayedHeader: null, body: { registration: { id: registrationId, status: 'cancelled' } } });
      expect(second).toMatchObject({
        status: 200,
        replayedHeader: 'true',
        body: { registration: { id: registrationId, status: 'cancelled' }, replayed: true },
      });
      expect(second.body['stateVersion']).toBe(first.body['stateVersion']);
      expect(await remaining(OPEN_EVENT)).toBe(placesBefore + 1);
      expect((await registrations()).map((row) => row.status)).toEqual(['cancelled']);
    });
  });

  describe('evidence of one journey', () => {
    it('records prepare, confirm, commit and its replay in order, on one draft, and findJourney gathers them', async () => {
      const person = await signedUpPerson();
      const step = () => clock.advance(1000);
      const draft = await agentPrepares(person, OPEN_EVENT, MEI_LIN);
      step();
      const confirmation: PersonConfirmation = await person.confirmed({
        action: 'register',
        event_id: OPEN_EVENT,
        ...MEI_LIN,
        draft_id: draft.id,
        draft_version: draft.version,
      });
      step();
      const key = randomUUID();
      expect((await commit(person, commitBodyOf(confirmation), key)).status).toBe(201);
      step();
      expect((await commit(person, commitBodyOf(confirmation), key)).replayedHeader).toBe('true');

      const records = await fixture.db.selectFrom('agentready_audit_record').selectAll().orderBy('occurred_at').execute();
      expect(records.map((record) => [record.tool, record.surface, record.outcome_code, record.draft_id, Number(record.replayed)])).toEqual([
        ['prepare_event_registration', 'webmcp', 'SUCCESS', draft.id, 0],
        ['approve_registration', 'ui', 'SUCCESS', draft.id, 0],
        ['register_for_event', 'ui', 'SUCCESS', draft.id, 0],
        ['register_for_event', 'ui', 'SUCCESS', draft.id, 1],
      ]);
      const [, approved, committed, replayed] = records;
      expect(committed!.confirmation_id).toMatch(/^cnf-/);
      expect(committed!.confirmation_id).toBe(approved!.confirmation_id);
      expect(committed!.draft_version).toBe(1);
      expect(committed!.idempotency_key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(committed!.idempotency_key_hash).not.toContain(key);
      expect(replayed!.idempotency_key_hash).toBe(committed!.idempotency_key_hash);
      expect(JSON.stringify(records)).not.toContain(key);
      expect(JSON.stringify(records)).not.toContain(confirmation.confirmationToken);

      const journey = await findJourney(fixture.db, committed!.trace_id);
      expect(journey.map((entry) => entry.traceId)).toEqual(records.map((record) => record.trace_id));
    });
  });
});
