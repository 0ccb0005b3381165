/**
 * Registration drafts, the prepared form behind `prepare_event_registration`'s
 * `confirmationUrl`: the domain on SQLite and on PostgreSQL (one draft per
 * account and event, a new version per change of content, removed by
 * registering, invisible to other accounts), and the REST API through
 * `app.request()` (the tool route stores it for a signed-in person, answers
 * its version and refuses an anonymous visitor, `GET
 * /api/events/:id/registration-draft` reads the account's own, no tool result
 * carries the e-mail). An unreachable PostgreSQL fails the run unless
 * AGENTREADY_SKIP_POSTGRES=1.
 */
import { pino } from 'pino';
import type { Principal } from 'agentready';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { AppVisitor } from './support/app-visitor.ts';
import { createSqliteFixture, createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { signedUpSession } from './support/signed-in-principal.ts';

/** Free, open, 8 of 30 places left. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** Open, with places left. */
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
/** Full. */
const FULL_EVENT = 'evt-accessible-forms-workshop';
const EMAIL = 'mei.lin@example.com';
const OTHER_EMAIL = 'lin.mei@example.org';
const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
/** A draft's content hash: SHA-256, hex. */
const CONTENT_HASH = /^[0-9a-f]{64}$/;

const dialects = await storeDialects('the registration draft tests');

describe.each(dialects)('registration drafts on $name', ({ open }) => {
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

  /** A person who signed up: drafts belong to accounts. */
  async function newPrincipal(): Promise<Principal> {
    return (await signedUpSession({ db: fixture.db, now: clock.now })).principal;
  }

  async function draftRows(): Promise<number> {
    return (await fixture.db.selectFrom('agentready_draft').select('id').execute()).length;
  }

  /** The person confirms the draft's current values on the page, then submits: the commit reads the stored draft. */
  async function register(principal: Principal, eventId: string) {
    const confirmed = await services.confirmRegistration(principal, { eventId, name: '林美玲', email: EMAIL });
    if (!confirmed.ok) throw new Error(`${confirmed.code}: ${confirmed.message}`);
    const { draft, confirmationToken } = confirmed.value;
    return services.registerForEvent(principal, { draftId: draft.id, draftVersion: draft.version, confirmationToken });
  }

  it('stores what the agent gave and hands it back to the same account only', async () => {
    const [person, stranger] = [await newPrincipal(), await newPrincipal()];
    const versionBefore = await services.getStateVersion(person);
    expect(await services.findRegistrationDraft(person, OPEN_EVENT)).toBeNull();

    const saved = await services.saveRegistrationDraft(person, OPEN_EVENT, { name: '林美玲', email: EMAIL });
    expect(saved).toEqual({
      ok: true,
      value: { preparedAt: '2026-11-29T10:00:00+08:00', draft: { id: expect.stringMatching(/^drf-/), version: 1, hash: expect.stringMatching(CONTENT_HASH) } },
    });
    if (!saved.ok) throw new Error(saved.message);
    expect(await services.findRegistrationDraft(person, OPEN_EVENT)).toEqual({
      ...saved.value.draft,
      name: '林美玲',
      email: EMAIL,
      preparedAt: '2026-11-29T10:00:00+08:00',
    });
    expect(await services.findRegistrationDraft(stranger, OPEN_EVENT)).toBeNull();
    expect(await services.findRegistrationDraft(person, OTHER_EVENT)).toBeNull();
    expect(await services.findRegistrationDraft(person, 'evt-no-such-event')).toBeNull();
    expect(await services.findRegistrationDraft(person, '1')).toBeNull();
    // A draft is no registration: nothing others see has changed.
    expect(await services.getStateVersion(person)).toBe(versionBefore);
    expect(await fixture.db.selectFrom('registrations').select('id').execute()).toEqual([]);
  });

  it('keeps one draft per account and event: a changed prepare makes a new version, a missing field included; the same one keeps it', async () => {
    const person = await newPrincipal();
    const first = await services.saveRegistrationDraft(person, OPEN_EVENT, { name: '林美玲', email: EMAIL });
    clock.advance(60_000);
    const second = await services.saveRegistrationDraft(person, OPEN_EVENT, { name: 'Lin Mei' });
    if (!first.ok || !second.ok) throw new Error('a prepare was refused');
    expect(second.value.draft).toMatchObject({ id: first.value.draft.id, version: 2 });
    expect(second.value.draft.hash).not.toBe(first.value.draft.hash);
    expect(await services.findRegistrationDraft(person, OPEN_EVENT)).toEqual({
      ...second.value.draft,
      name: 'Lin Mei',
      email: null,
      preparedAt: '2026-11-29T10:01:00+08:00',
    });
    // The same values again: still version 2.
    expect(await services.saveRegistrationDraft(person, OPEN_EVENT, { name: 'Lin Mei' })).toMatchObject({ ok: true, value: { draft: second.value.draft } });
    await services.saveRegistrationDraft(person, OTHER_EVENT, { email: OTHER_EMAIL });
    expect(await services.findRegistrationDraft(person, OTHER_EVENT)).toMatchObject({ version: 1, name: null, email: OTHER_EMAIL });
    expect(await draftRows()).toBe(2);
  });

  it('lets two prepares at the same moment both succeed as versions 1 and 2, leaving one draft holding version 2', async () => {
    const person = await newPrincipal();
    const values = [
      { name: 'First Try', email: EMAIL },
      { name: 'Second Try', email: OTHER_EMAIL },
    ];
    const results = await Promise.all(values.map((value) => services.saveRegistrationDraft(person, OPEN_EVENT, value)));
    const versions = results.map((result) => (result.ok ? result.value.draft.version : null));
    expect([...versions].sort()).toEqual([1, 2]);
    expect(await draftRows()).toBe(1);
    const draft = await services.findRegistrationDraft(person, OPEN_EVENT);
    expect(draft).toMatchObject({ version: 2 });
    expect({ name: draft?.name, email: draft?.email }).toEqual(values[versions.indexOf(2)]);
  });

  it('refuses a name or e-mail the Submit would refuse, and an unknown event, storing nothing', async () => {
    const person = await newPrincipal();
    expect(await services.saveRegistrationDraft(person, OPEN_EVENT, { name: 'abc \u202Eevil' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'name',
    });
    expect(await services.saveRegistrationDraft(person, OPEN_EVENT, { name: 'first\nsecond' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'name',
    });
    expect(await services.saveRegistrationDraft(person, OPEN_EVENT, { email: 'not-an-email' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'email',
    });
    expect(await services.saveRegistrationDraft(person, 'evt-no-such-event', { name: 'A' })).toMatchObject({ ok: false, code: 'NOT_FOUND', field: 'event_id' });
    expect(await draftRows()).toBe(0);
  });

  it('is removed by registering for its event, and kept when the registration is refused', async () => {
    const [person, stranger] = [await newPrincipal(), await newPrincipal()];
    const prepared = await services.saveRegistrationDraft(person, OPEN_EVENT, { name: '林美玲', email: EMAIL });
    await services.saveRegistrationDraft(person, OTHER_EVENT, { name: '林美玲' });
    await services.saveRegistrationDraft(stranger, OPEN_EVENT, { name: 'Stranger' });
    if (!prepared.ok) throw new Error(prepared.message);

    // Refused (no valid confirmation token): the transaction rolls back, the draft stays as it was.
    const { id, version } = prepared.value.draft;
    expect(await services.registerForEvent(person, { draftId: id, draftVersion: version, confirmationToken: 'cft_not-a-real-token' })).toMatchObject({
      ok: false,
      code: 'CONFIRMATION_REQUIRED',
    });
    expect(await services.findRegistrationDraft(person, OPEN_EVENT)).toMatchObject({ id, version, name: '林美玲' });

    expect(await register(person, OPEN_EVENT)).toMatchObject({ ok: true });
    expect(await services.findRegistrationDraft(person, OPEN_EVENT)).toBeNull();
    // Only that account's draft for that event went.
    expect(await services.findRegistrationDraft(person, OTHER_EVENT)).toMatchObject({ name: '林美玲' });
    expect(await services.findRegistrationDraft(stranger, OPEN_EVENT)).toMatchObject({ name: 'Stranger' });
    expect(await draftRows()).toBe(2);
  });
});

describe('the registration draft through the API', () => {
  type Envelope = {
    ok: boolean;
    code: string;
    field?: string;
    data?: Record<string, unknown>;
    guidance?: { requiresHumanConfirmation: boolean; confirmationUrl?: string };
  };

  let fixture: DatabaseFixture;
  let app: EventsApp;
  /** Every answer the test saw, for the leak check. */
  let answers: Array<{ method: string; path: string; text: string }>;

  beforeEach(async () => {
    fixture = await createSqliteFixture();
    app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }) });
    answers = [];
  });
  afterEach(async () => {
    await fixture.close();
    // An e-mail address appears only in an account's own draft, read by that account.
    for (const { method, path, text } of answers) {
      if (method === 'GET' && path.endsWith('/registration-draft')) continue;
      expect(text, `${method} ${path}`).not.toMatch(EMAIL_PATTERN);
    }
  });

  /** A browser: its cookie, its CSRF token (from `GET /api/session`, as the page gets it), and what it is owed. */
  class Visitor extends AppVisitor {
    constructor() {
      super(() => app, { onAnswer: ({ method, path, text }) => answers.push({ method, path, text }) });
    }

    async tool(name: string, input: unknown): Promise<Envelope> {
      const answer = await this.call('POST', `/api/tools/${name}`, input);
      expect(answer.status).toBe(200);
      return answer.body as Envelope;
    }

    async draft(eventId: string): Promise<unknown> {
      const answer = await this.call('GET', `/api/events/${eventId}/registration-draft`);
      expect(answer.status).toBe(200);
      return answer.body;
    }
  }

  /** A visitor who has not signed in. */
  const visitor = () => new Visitor().start();

  /** A person who signed up in this browser, as the sign-up page does. */
  async function signedUpVisitor(): Promise<Visitor> {
    const person = await visitor();
    await person.signUp();
    return person;
  }

  it('stores the form prepare_event_registration fills, for the page at its confirmationUrl; the result names its version, never the e-mail', async () => {
    const person = await signedUpVisitor();
    const prepared = await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL });
    expect(prepared).toMatchObject({
      ok: true,
      data: { form: { name: '林美玲', emailProvided: true }, draft: { id: expect.stringMatching(/^drf-/), version: 1 }, status: 'awaiting_person' },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `/events/${OPEN_EVENT}/register` },
    });
    expect(JSON.stringify(prepared)).not.toContain(EMAIL);
    expect(await person.draft(OPEN_EVENT)).toEqual({
      draft: {
        ...(prepared.data?.['draft'] as object),
        hash: expect.stringMatching(CONTENT_HASH),
        name: '林美玲',
        email: EMAIL,
        preparedAt: '2026-11-29T10:00:00+08:00',
      },
    });
    // Preparing registered nobody and took no place.
    expect(await fixture.db.selectFrom('registrations').select('id').execute()).toEqual([]);
    const event = await fixture.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', OPEN_EVENT).executeTakeFirstOrThrow();
    expect(event.remaining_capacity).toBe(8);
  });

  it('revises the draft when the agent prepares again: the same draft, a new version each time, answered to the agent', async () => {
    const person = await signedUpVisitor();
    const first = await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL });
    const draftId = (first.data!['draft'] as { id: string }).id;
    const second = await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: 'Lin Mei', email: OTHER_EMAIL });
    expect(second.data?.['draft']).toEqual({ id: draftId, version: 2 });
    expect(await person.draft(OPEN_EVENT)).toMatchObject({ draft: { id: draftId, version: 2, name: 'Lin Mei', email: OTHER_EMAIL } });
    const third = await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: 'Lin Mei' });
    expect(third.data?.['draft']).toEqual({ id: draftId, version: 3 });
    expect(await person.draft(OPEN_EVENT)).toMatchObject({ draft: { id: draftId, version: 3, name: 'Lin Mei', email: null } });
    expect((await fixture.db.selectFrom('agentready_draft').select('id').execute()).length).toBe(1);
  });

  it('shows the draft to the same account in another browser, and nothing of it to another account, a visitor or a request without a session', async () => {
    const person = await visitor();
    const { email: personEmail } = await person.signUp();
    await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL });

    const sameAccount = await visitor();
    expect(await sameAccount.signIn(personEmail)).toMatchObject({ status: 200 });
    expect(await sameAccount.draft(OPEN_EVENT)).toMatchObject({ draft: { name: '林美玲', email: EMAIL } });

    const stranger = await signedUpVisitor();
    expect(await stranger.draft(OPEN_EVENT)).toEqual({ draft: null });
    const anonymousVisitor = await visitor();
    expect(await anonymousVisitor.draft(OPEN_EVENT)).toEqual({ draft: null });

    const nobody = new Visitor();
    const anonymous = await nobody.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`);
    expect(anonymous).toMatchObject({ status: 200, body: { draft: null }, setCookie: null });
    expect(await person.draft('evt-no-such-event')).toEqual({ draft: null });
  });

  it("refuses an anonymous visitor's agent with a sign-in next step, storing nothing", async () => {
    const anonymousVisitor = await visitor();
    const refused = await anonymousVisitor.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL });
    expect(refused).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
      message: expect.stringMatching(/^Sign in to /),
      nextAction: expect.stringContaining('sign in'),
    });
    expect(JSON.stringify(refused)).not.toContain(EMAIL);
    expect(await anonymousVisitor.draft(OPEN_EVENT)).toEqual({ draft: null });
    expect(await fixture.db.selectFrom('agentready_draft').select('id').execute()).toEqual([]);
  });

  it('stores nothing when the tool refuses: a full event, a bad e-mail or name', async () => {
    const person = await signedUpVisitor();
    expect(await person.tool('prepare_event_registration', { event_id: FULL_EVENT, name: 'A', email: EMAIL })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, email: 'not-an-email' })).toMatchObject({ ok: false, field: 'email' });
    expect(await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: 'bell\u0007' })).toMatchObject({ ok: false, field: 'name' });
    expect(await person.draft(FULL_EVENT)).toEqual({ draft: null });
    expect(await person.draft(OPEN_EVENT)).toEqual({ draft: null });
  });

  it('removes the draft when the person registers, which the tool then refuses to prepare again', async () => {
    const person = await signedUpVisitor();
    await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL });
    expect(await person.register(OPEN_EVENT, { name: '林美玲', email: EMAIL })).toMatchObject({ status: 201 });
    expect(await person.draft(OPEN_EVENT)).toEqual({ draft: null });
    expect(await person.tool('prepare_event_registration', { event_id: OPEN_EVENT, name: '林美玲', email: EMAIL })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
    });
    expect(await person.draft(OPEN_EVENT)).toEqual({ draft: null });
  });

  it('points the cancellation at the registrations page with that registration to confirm', async () => {
    const person = await signedUpVisitor();
    const registered = await person.register(OPEN_EVENT, { name: '林美玲', email: EMAIL });
    const registrationId = (registered.body as { registration: { id: string } }).registration.id;
    const prepared = await person.tool('prepare_registration_cancellation', {});
    expect(prepared).toMatchObject({
      ok: true,
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `/registrations?cancel=${encodeURIComponent(registrationId)}` },
    });
    expect(new URL(prepared.guidance?.confirmationUrl ?? '', 'http://site').searchParams.get('cancel')).toBe(registrationId);
  });
});
