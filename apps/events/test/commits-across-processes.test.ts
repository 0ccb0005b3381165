/**
 * Registrations committed across site processes, on PostgreSQL: the site
 * runs as separate processes (src/server/main.ts, as `npm start` runs it) on
 * one schema, migrated once before they start, and people talk to them over
 * real HTTP (session cookie, CSRF token, `POST /api/confirmations`, then
 * `POST /api/registrations` under `Idempotency-Key`).
 *
 * - One key sent 50 times at once, alternately to two processes: one
 *   registration, one place taken, every answer the same registration or
 *   IN_PROGRESS.
 * - 50 people, 10 places, everyone commits at once on both processes:
 *   exactly 10 registrations, 40 "full" refusals, no place below zero.
 * - A process killed mid-commit (inside its transaction, or with its claim
 *   landing after it died, before any transaction): after the lease, a retry
 *   on a fresh process registers once, and again replays it.
 * - A client that gives up on a slow commit: the commit still finishes, and
 *   the retry with the same key replays it instead of registering twice.
 *
 * A lock held by a connection of the test's own stops a commit at a known
 * point; no hook in the site's code. (SQLite has one writer per database and
 * no row locks to hold a commit mid-way, so these run on PostgreSQL only.)
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { openSitePerson } from './support/site-person.ts';
import {
  confirmRegistration,
  crashMidCommitThenRetry,
  eventSeats,
  holdLock,
  loopbackAddress,
  registrationIdsAt,
  sendRegistrationCommit,
  setEventPlaces,
  startEventsProcess,
  waitForKeyRecord,
  waitForWaiters,
  type CommitAnswer,
  type CrashPoint,
  type SiteProcess,
} from './support/site-processes.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const postgres = (await storeDialects('the commits across processes tests')).find((dialect) => dialect.name === 'postgres');

describe.runIf(postgres !== undefined)('registrations committed across site processes, on PostgreSQL', { timeout: 120_000 }, () => {
  let fixture: DatabaseFixture;
  const processes: SiteProcess[] = [];
  const releases: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    // Migrated and seeded here, once, before any site process starts on it.
    fixture = await postgres!.open();
  });
  afterEach(async () => {
    for (const release of releases.splice(0)) await release();
    for (const site of processes.splice(0)) await site.kill();
    await fixture.close();
  });

  async function startSite(leaseSeconds?: number): Promise<SiteProcess> {
    const site = await startEventsProcess(fixture.url, leaseSeconds === undefined ? {} : { leaseSeconds });
    processes.push(site);
    return site;
  }

  it('50 commits with one key at once, alternately on two processes, register once and take one place', async () => {
    const sites = [await startSite(), await startSite()];
    const before = await eventSeats(fixture.db, OPEN_EVENT);
    const person = await openSitePerson(sites[0]!.url);
    const commit = await confirmRegistration(person, OPEN_EVENT);
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => sendRegistrationCommit(sites[i % 2]!.url, person, commit, key)));

    const after = await eventSeats(fixture.db, OPEN_EVENT);
    expect(after.registrationIds).toHaveLength(before.registrationIds.length + 1);
    expect(after.remaining).toBe(before.remaining - 1);
    const registrationId = after.registrationIds.find((id) => !before.registrationIds.includes(id));
    const registered = answers.filter((answer) => answer.status === 201);
    const inProgress = answers.filter((answer) => answer.status === 409);
    expect(registered.length + inProgress.length).toBe(50);
    for (const answer of registered) expect(answer.body['registration']).toMatchObject({ id: registrationId, event: { id: OPEN_EVENT } });
    // One call did the work; every other 201 is its answer again, and says so.
    expect(registered.filter((answer) => !answer.replayed)).toHaveLength(1);
    for (const answer of registered.filter((answer) => answer.replayed)) expect(answer.body['replayed']).toBe(true);
    for (const answer of inProgress) {
      expect(answer.body).toMatchObject({ ok: false, code: 'IN_PROGRESS', retryable: true });
      expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
    }
    // Those told to retry get the same registration when they do, from either process.
    for (const site of sites) {
      const retried = await sendRegistrationCommit(site.url, person, commit, key);
      expect(retried).toMatchObject({ status: 201, replayed: true, body: { registration: { id: registrationId } } });
    }
    for (const site of sites) expect(await registrationIdsAt(site.url, person)).toEqual([registrationId]);
  });

  it('50 people committing at once for the last 10 places, on two processes, get exactly 10 registrations and 40 "full" refusals', async () => {
    const sites = [await startSite(), await startSite()];
    await setEventPlaces(fixture.db, OPEN_EVENT, 10, 10);
    // Each person signs up from an address of their own (the site limits sign-ups per address), a few at a time (argon2).
    const people = [];
    for (let first = 0; first < 50; first += 5) {
      const batch = Array.from({ length: 5 }, (_, i) => openSitePerson(sites[(first + i) % 2]!.url, { fromAddress: loopbackAddress(first + i) }));
      people.push(...(await Promise.all(batch)));
    }
    const commits = await Promise.all(
      people.map((person, i) => confirmRegistration(person, OPEN_EVENT, { name: `Person ${i}`, email: `person-${i}@example.com` })),
    );

    const answers = await Promise.all(people.map((person, i) => sendRegistrationCommit(sites[i % 2]!.url, person, commits[i]!, randomUUID())));

    const registered = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(registered).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({ ok: false, code: 'CONFLICT', field: 'event_id' });
      expect(answer.body['message']).toMatch(/full/);
    }
    const seats = await eventSeats(fixture.db, OPEN_EVENT);
    expect(seats.remaining).toBe(0);
    expect(seats.registrationIds.sort()).toEqual(registered.map((answer) => (answer.body['registration'] as { id: string }).id).sort());
    // Each of the ten sees their own registration, the forty none.
    const lists = await Promise.all(people.map((person) => person.registrations()));
    expect(lists.filter((list) => list.length === 1)).toHaveLength(10);
    expect(lists.filter((list) => list.length === 0)).toHaveLength(40);
  });

  for (const [crashPoint, where] of [
    ['inside-transaction', 'inside its transaction, waiting to take a place'],
    ['before-transaction', 'after its claim, before any transaction of it started'],
  ] as const satisfies ReadonlyArray<readonly [CrashPoint, string]>) {
    it(`a process killed mid-commit (${where}): after the lease, a retry on a fresh process registers once, and replays after`, async () => {
      const victim = await startSite(2);
      const before = await eventSeats(fixture.db, OPEN_EVENT);
      const person = await openSitePerson(victim.url);
      const commit = await confirmRegistration(person, OPEN_EVENT);

      const recovery = await crashMidCommitThenRetry({
        db: fixture.db,
        databaseUrl: fixture.url,
        victim,
        person,
        commit,
        key: randomUUID(),
        eventId: OPEN_EVENT,
        crashPoint,
      });
      processes.push(recovery.successor);

      expect(recovery.recordAtKill?.state).toBe(crashPoint === 'inside-transaction' ? 'running' : undefined);
      expect(recovery.orphanedClaim.state).toBe('running');
      expect(recovery.killedCallAnswered).toBe(false);
      for (const answer of recovery.inProgress) expect(answer.body).toMatchObject({ code: 'IN_PROGRESS' });
      expect(recovery.recovered).toMatchObject({ status: 201, replayed: false, body: { registration: { event: { id: OPEN_EVENT } } } });
      const registrationId = (recovery.recovered.body['registration'] as { id: string }).id;
      expect(recovery.replay).toMatchObject({ status: 201, replayed: true, body: { replayed: true, registration: { id: registrationId } } });
      const after = await eventSeats(fixture.db, OPEN_EVENT);
      expect(after.registrationIds).toEqual([...before.registrationIds, registrationId]);
      expect(after.remaining).toBe(before.remaining - 1);
      expect(await registrationIdsAt(recovery.successor.url, person)).toEqual([registrationId]);
    });
  }

  it('a client that gives up on a slow commit: the commit still finishes, and the retry with its key replays it instead of registering again', async () => {
    const site = await startSite();
    const before = await eventSeats(fixture.db, OPEN_EVENT);
    const person = await openSitePerson(site.url);
    const commit = await confirmRegistration(person, OPEN_EVENT);
    const key = randomUUID();
    const lock = await holdLock(fixture.url, { eventRow: OPEN_EVENT });
    releases.push(lock.release);

    const client = new AbortController();
    const abandoned: Promise<CommitAnswer | 'aborted'> = sendRegistrationCommit(site.url, person, commit, key, client.signal).catch(() => 'aborted' as const);
    await waitForKeyRecord(fixture.db, key, 'running');
    await waitForWaiters(fixture.db, lock.pid, 1);
    client.abort();
    expect(await abandoned).toBe('aborted');
    await lock.release();
    // The site finishes the commit nobody waits for, and keeps its answer.
    await waitForKeyRecord(fixture.db, key, 'done');

    const retried = await sendRegistrationCommit(site.url, person, commit, key);
    expect(retried).toMatchObject({ status: 201, replayed: true, body: { replayed: true, registration: { event: { id: OPEN_EVENT } } } });
    const registrationId = (retried.body['registration'] as { id: string }).id;
    const after = await eventSeats(fixture.db, OPEN_EVENT);
    expect(after.registrationIds).toEqual([...before.registrationIds, registrationId]);
    expect(after.remaining).toBe(before.remaining - 1);
    expect(await registrationIdsAt(site.url, person)).toEqual([registrationId]);
  });
});
