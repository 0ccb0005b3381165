/**
 * @module Sessions as a person lives them, on SQLite and PostgreSQL, with a
 * clock the test moves (docs/identity.md, "Sessions"): the idle and absolute
 * lifetimes, a new cookie at sign-in (no session fixation), sign-out and
 * sign-out-everywhere ending sessions on the server, a password change ending
 * the others, the cookie's attributes under an http and an https site URL,
 * and a request with two session cookies.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp, type EventsAppOptions } from '../src/server/create-events-app.ts';
import { createTestClock, storeDialects, type DatabaseFixture, type TestClock } from './support/events-database.ts';
import { deletesCookie, IdentityPerson } from './support/identity-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Short lifetimes so a test can pass them: one hour without a request, five in all. */
const LIFETIMES = { idleMs: HOUR, absoluteMs: 5 * HOUR };

const dialects = await storeDialects('the identity session tests');

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('sessions on %s', (_name, dialect) => {
  let fixture: DatabaseFixture;
  let clock: TestClock;
  let app: EventsApp;

  function buildApp(options: Partial<EventsAppOptions> = {}): EventsApp {
    return createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }), sessionLifetimes: LIFETIMES, ...options });
  }

  beforeAll(async () => {
    fixture = await dialect.open();
    clock = createTestClock();
    app = buildApp();
  });
  afterAll(async () => {
    await app?.closeMcp();
    await fixture?.close();
  });

  const person = () => new IdentityPerson(() => app);

  it('ends a session left alone for the idle lifetime: SESSION_EXPIRED, the cookie cleared, nothing changed, the pages signed out', async () => {
    const mei = await person().signUp();
    expect((await mei.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    const cookie = mei.cookie;
    clock.advance(LIFETIMES.idleMs);

    const refused = await mei.call('POST', '/api/saved', { event_id: OTHER_EVENT });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ ok: false, code: 'SESSION_EXPIRED' });
    expect(refused.setCookies.some((line) => line.startsWith('ar_session=') && deletesCookie(line))).toBe(true);
    expect(mei.cookie).toBeNull();

    // The old cookie, presented again, shows a signed-out page and is cleared there too.
    const page = await mei.call('GET', '/saved', undefined, { cookieHeader: `ar_session=${cookie}` });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(OPEN_EVENT);
    expect((await mei.openSession()).signedIn).toBe(false);
    expect(await mei.savedEventIds()).toEqual([]);

    // Signing in again finds the account as it was: the refused save did not land.
    expect((await mei.signIn()).status).toBe(200);
    expect(await mei.savedEventIds()).toEqual([OPEN_EVENT]);
  });

  it('opens a new anonymous session for a page that comes back with an expired cookie: the clearing comes first, the new cookie last', async () => {
    const lin = await person().signUp();
    clock.advance(LIFETIMES.idleMs);
    const answer = await lin.call('GET', '/api/session');
    expect(answer.body).toMatchObject({ signedIn: false });
    const sessionLines = answer.setCookies.filter((line) => line.startsWith('ar_session='));
    expect(sessionLines.some(deletesCookie)).toBe(true);
    // A browser applies Set-Cookie lines in order: the last one at Path=/ is the cookie it keeps.
    const lastAtRoot = sessionLines.filter((line) => /;\s*path=\/(;|$)/i.test(line)).at(-1)!;
    expect(deletesCookie(lastAtRoot)).toBe(false);
    lin.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    expect((await lin.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    expect(await lin.savedEventIds()).toEqual([OPEN_EVENT]);
  });

  it('keeps an active session until its absolute end, whatever the activity', async () => {
    const ken = await person().signUp();
    const step = LIFETIMES.idleMs - 10 * MINUTE;
    let elapsed = 0;
    while (elapsed + step < LIFETIMES.absoluteMs) {
      clock.advance(step);
      elapsed += step;
      const session = await ken.call('GET', '/api/session');
      expect(session.body, `after ${elapsed / MINUTE} minutes`).toMatchObject({ signedIn: true });
    }
    clock.advance(LIFETIMES.absoluteMs - elapsed);
    const ended = await ken.call('POST', '/api/saved', { event_id: OPEN_EVENT });
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ code: 'SESSION_EXPIRED' });
  });

  it('gives a new cookie value at sign-in; the anonymous one it replaces no longer works', async () => {
    const lin = person();
    await lin.signUp();
    await lin.call('POST', '/api/account/sign-out');
    await lin.openSession();
    const anonymousCookie = lin.cookie;
    const anonymousCsrf = lin.csrfToken;
    expect((await lin.signIn()).status).toBe(200);
    expect(lin.cookie).not.toBeNull();
    expect(lin.cookie).not.toBe(anonymousCookie);
    expect(lin.csrfToken).not.toBe(anonymousCsrf);

    // Whoever kept the anonymous cookie (someone who planted it) has nothing: refused, and signed out.
    const planter = person();
    planter.cookie = anonymousCookie;
    planter.csrfToken = anonymousCsrf;
    expect((await planter.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(401);
    planter.cookie = anonymousCookie;
    expect((await planter.openSession()).signedIn).toBe(false);
    expect(await lin.savedEventIds()).toEqual([]);
  });

  it('ends the session on the server at sign-out: the old cookie replayed is refused', async () => {
    const ana = await person().signUp();
    const cookie = ana.cookie;
    const csrf = ana.csrfToken;
    const out = await ana.call('POST', '/api/account/sign-out');
    expect(out.status).toBe(200);
    expect(ana.cookie).toBeNull();

    const replay = person();
    replay.cookie = cookie;
    replay.csrfToken = csrf;
    const refused = await replay.call('POST', '/api/saved', { event_id: OPEN_EVENT });
    expect(refused.status).toBe(401);
    replay.cookie = cookie;
    expect(await replay.savedEventIds()).toEqual([]);
    replay.cookie = cookie;
    expect((await replay.openSession()).signedIn).toBe(false);
  });

  it("signs out everywhere: every session of the account ends, another account's stays", async () => {
    const first = await person().signUp();
    const second = person();
    second.email = first.email;
    expect((await second.signIn()).status).toBe(200);
    const stranger = await person().signUp();

    const everywhere = await second.call('POST', '/api/account/sign-out-everywhere');
    expect(everywhere.status).toBe(200);
    expect(everywhere.body).toMatchObject({ signedIn: false, endedSessions: 2 });
    expect((await first.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(401);
    expect((await stranger.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    expect((await stranger.openSession()).signedIn).toBe(true);
  });

  it('ends the other sessions when the password changes; this one stays and the new password signs in', async () => {
    const here = await person().signUp();
    const elsewhere = person();
    elsewhere.email = here.email;
    expect((await elsewhere.signIn()).status).toBe(200);

    const changed = await here.call('POST', '/api/account/password', { currentPassword: here.password, newPassword: 'a brand new password' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ endedSessions: 1 });
    expect((await elsewhere.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(401);
    expect((await here.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);

    const later = person();
    later.email = here.email;
    expect((await later.signIn()).status).toBe(401);
    expect((await later.signIn('a brand new password')).status).toBe(200);
  });

  it('refuses a request with two session cookies and clears the cookie at / and at the API paths', async () => {
    const mei = await person().signUp();
    const other = await person().signUp();
    const refused = await mei.call('POST', '/api/saved', { event_id: OPEN_EVENT }, { cookieHeader: `ar_session=${other.cookie}; ar_session=${mei.cookie}` });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    const clearedPaths = refused.setCookies
      .filter((line) => line.startsWith('ar_session=') && deletesCookie(line))
      .map((line) => /;\s*path=([^;]*)/i.exec(line)?.[1]);
    expect(clearedPaths).toEqual(expect.arrayContaining(['/', '/api']));
    expect(await other.savedEventIds()).toEqual([]);
    const meiAgain = person();
    meiAgain.email = mei.email;
    expect((await meiAgain.signIn()).status).toBe(200);
    expect(await meiAgain.savedEventIds()).toEqual([]);
  });
});

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('the session cookie on %s', (_name, dialect) => {
  let fixture: DatabaseFixture;
  let clock: TestClock;

  beforeAll(async () => {
    fixture = await dialect.open();
    clock = createTestClock();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** The session cookie line of a sign-up on an app with this site URL. */
  async function signUpCookieLine(siteUrl: string | undefined, cookieName: string): Promise<{ line: string; person: IdentityPerson; app: EventsApp }> {
    const app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }), ...(siteUrl !== undefined && { mcp: { siteUrl } }) });
    const person = new IdentityPerson(() => app, cookieName);
    await person.openSession();
    const answer = await person.call('POST', '/api/account/sign-up', { email: person.email, password: person.password });
    expect(answer.status, answer.text).toBe(201);
    person.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    const line = answer.setCookies.find((candidate) => candidate.startsWith(`${cookieName}=`) && !deletesCookie(candidate));
    expect(line, answer.setCookies.join('\n')).toBeDefined();
    return { line: line!, person, app };
  }

  it('is __Host- and Secure when the site URL is https, and lasts until the absolute end (an Expires)', async () => {
    const { line, person, app } = await signUpCookieLine('https://events.example', '__Host-ar_session');
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/i);
    expect(line).not.toMatch(/;\s*Domain=/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    const expires = /;\s*Expires=([^;]+)/i.exec(line)?.[1];
    expect(expires).toBeDefined();
    // The default absolute lifetime is 30 days (docs/identity.md).
    expect(new Date(expires!).getTime()).toBe(new Date(clock.now().getTime() + 30 * DAY).setMilliseconds(0));
    // The cookie under its plain name is not the session on such a site.
    const plain = new IdentityPerson(() => app);
    expect((await plain.call('GET', '/api/saved', undefined, { cookieHeader: `ar_session=${person.cookie}` })).status).toBe(200);
    expect((await person.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    expect((await person.call('POST', '/api/saved', { event_id: OTHER_EVENT }, { cookieHeader: `ar_session=${person.cookie}` })).status).toBe(401);
    await app.closeMcp();
  });

  it('on an https site, refuses two session cookies and signs out with the __Host- cookie cleared at /, as on http', async () => {
    const { person, app } = await signUpCookieLine('https://events.example', '__Host-ar_session');
    const other = (await signUpCookieLine('https://events.example', '__Host-ar_session')).person;
    const twice = await person.call(
      'POST',
      '/api/saved',
      { event_id: OPEN_EVENT },
      { cookieHeader: `__Host-ar_session=${other.cookie}; __Host-ar_session=${person.cookie}` },
    );
    expect(twice.status).toBe(401);
    expect(twice.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(
      twice.setCookies.filter((line) => line.startsWith('__Host-ar_session=') && deletesCookie(line)).map((line) => /;\s*path=([^;]*)/i.exec(line)?.[1]),
    ).toEqual(['/']);
    const out = await other.call('POST', '/api/account/sign-out');
    expect(out.status, out.text).toBe(200);
    expect(other.cookie).toBeNull();
    await app.closeMcp();
  });

  it('is plain ar_session without Secure when the site URL is http, still with an Expires', async () => {
    const { line, app } = await signUpCookieLine('http://127.0.0.1:3000', 'ar_session');
    expect(line).not.toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*Expires=/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    await app.closeMcp();
  });
});
