/**
 * Every effect keeps the audit record of the call that made it, across a
 * crash: a real site process (src/server/main.ts, as `npm start` runs it) on
 * SQLite and on PostgreSQL takes a burst of tool calls that change things
 * (`save_event` through `/api/tools`, `register_for_event` through
 * `POST /api/registrations`) and is killed with SIGKILL once it has answered
 * a number of them, with the rest still in flight. Afterwards every saved
 * event and every registration is named by the one record, not replayed,
 * of the call that made it; and a retry of everything on a fresh process
 * makes nothing twice and claims nothing twice (its records say `replayed`).
 * Reads, whose records commit without waiting for the disk, keep theirs too.
 */
import { randomUUID } from 'node:crypto';
import { holdPostgresLock, pollUntil } from '@agentready/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';
import {
  confirmRegistration,
  sendRegistrationCommit,
  sendRegistrationCommitUntilSettled,
  startEventsProcess,
  type RegistrationCommit,
  type SiteProcess,
} from './support/site-processes.ts';

const dialects = await storeDialects('the evidence-across-crashes tests');
/** How many effects of the burst the database holds when the site is killed. */
const EFFECTS_BEFORE_KILL = 10;
const LEASE_SECONDS = 1;

describe.each(dialects)('every effect has its record after a SIGKILL ($name)', (dialect) => {
  let fixture: DatabaseFixture;
  const processes: SiteProcess[] = [];

  afterEach(async () => {
    for (const site of processes.splice(0)) await site.kill();
    await fixture?.close();
  });

  async function startSite(): Promise<SiteProcess> {
    const site = await startEventsProcess(fixture.url, { leaseSeconds: LEASE_SECONDS });
    processes.push(site);
    return site;
  }

  it('a burst of saves and registrations killed midway: each saved event and registration is named by the record of the call that made it', {
    timeout: 240_000,
  }, async () => {
    fixture = await dialect.open();
    const victim = await startSite();
    const person = await openSitePerson(victim.url);
    const registrations = await confirmedRegistrations(person, await eventIds(fixture, { openForRegistration: true, limit: 16 }));
    expect(registrations.length).toBeGreaterThanOrEqual(8);
    const saves = await eventIds(fixture, { openForRegistration: false, limit: 60 });
    expect(saves.length).toBeGreaterThanOrEqual(20);

    // All at once; the site is killed as soon as the database holds EFFECTS_BEFORE_KILL of their effects.
    const burst = [
      ...registrations.map(({ commit, key }) => sendRegistrationCommit(victim.url, person, commit, key)),
      ...saves.map((eventId) => saveEventAt(victim.url, person, eventId)),
    ];
    const settled = Promise.allSettled(burst);
    await pollUntil('the first effects of the burst', async () => {
      const { savedEventIds, registrationIds } = await effectsAndRecords(fixture);
      return savedEventIds.length + registrationIds.length >= EFFECTS_BEFORE_KILL ? true : undefined;
    });
    await victim.kill();
    // Some calls were cut off by the kill (their connection reset): the crash came in the middle of the burst.
    expect((await settled).filter((outcome) => outcome.status === 'rejected').length).toBeGreaterThan(0);

    const afterCrash = await effectsAndRecords(fixture);
    expect(afterCrash.savedEventIds.length + afterCrash.registrationIds.length).toBeGreaterThanOrEqual(1);
    expectEachEffectNamedByItsOwnRecord(afterCrash);

    // Everything again on a fresh process, same keys: nothing is made twice, and no second record claims an effect.
    const successor = await startSite();
    const replays = await Promise.all(
      registrations.map(({ commit, key }) => sendRegistrationCommitUntilSettled(successor.url, person, commit, key).then(({ answer }) => answer)),
    );
    for (const answer of replays) expect(answer.status).toBe(201);
    for (const eventId of saves) expect(await saveEventAt(successor.url, person, eventId)).toMatchObject({ ok: true });

    const afterRetries = await effectsAndRecords(fixture);
    expect(afterRetries.registrationIds.sort()).toEqual(replays.map((answer) => (answer.body['registration'] as { id: string }).id).sort());
    expect(afterRetries.savedEventIds.sort()).toEqual([...saves].sort());
    expectEachEffectNamedByItsOwnRecord(afterRetries);
    for (const answer of replays.filter((answer) => answer.replayed)) {
      const id = (answer.body['registration'] as { id: string }).id;
      const claims = afterRetries.records.filter((record) => record.tool === 'register_for_event' && record.resultingIds.includes(id));
      expect(claims.filter((record) => !record.replayed)).toHaveLength(1);
    }
  });

  it('reads answered before the kill keep their records: their commits skip the wait for the disk, not the write', { timeout: 120_000 }, async () => {
    fixture = await dialect.open();
    const victim = await startSite();
    const person = await openSitePerson(victim.url);
    const searches = 12;
    for (let n = 0; n < searches; n += 1) expect(await searchEventsAt(victim.url, person)).toMatchObject({ ok: true });
    await victim.kill();

    const { records } = await effectsAndRecords(fixture);
    expect(records.filter((record) => record.tool === 'search_events' && record.outcome === 'SUCCESS')).toHaveLength(searches);
  });

  it('killed while the records of its calls cannot be written yet: not one of their effects is left without its record', { timeout: 240_000 }, async () => {
    fixture = await dialect.open();
    const victim = await startSite();
    const person = await openSitePerson(victim.url);
    const registrations = await confirmedRegistrations(person, await eventIds(fixture, { openForRegistration: true, limit: 6 }));
    const saves = await eventIds(fixture, { openForRegistration: false, limit: 12 });
    const held = await holdAuditRecords(fixture, ['save_event', 'register_for_event']);
    let settled: Promise<unknown> = Promise.resolve();
    try {
      const burst = [
        ...registrations.map(({ commit, key }) => sendRegistrationCommit(victim.url, person, commit, key)),
        ...saves.map((eventId) => saveEventAt(victim.url, person, eventId)),
      ];
      settled = Promise.allSettled(burst);
      await held.untilCallsReachedTheirRecords(burst, 4);
      await victim.kill();
    } finally {
      await held.release();
    }
    await settled;

    expectEachEffectNamedByItsOwnRecord(await effectsAndRecords(fixture));
  });
});

/** Calls `save_event` as the person's page does, on the process at `siteUrl` (`POST /api/tools/save_event` with the session cookie and CSRF token); its envelope. */
async function saveEventAt(siteUrl: string, person: SitePerson, eventId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${siteUrl}/api/tools/save_event`, {
    method: 'POST',
    headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ event_id: eventId }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** `search_events({keyword: "WebMCP"})` through the page's tool route, as the person's page calls it. */
async function searchEventsAt(siteUrl: string, person: SitePerson): Promise<Record<string, unknown>> {
  const response = await fetch(`${siteUrl}/api/tools/search_events`, {
    method: 'POST',
    headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ keyword: 'WebMCP' }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Audit records that cannot be written for a while, as a crash finds them: what {@link holdAuditRecords} answers. */
type HeldAuditRecords = {
  /** Waits until at least `count` calls of `burst` reached the write of their record (on PostgreSQL, waiting for it, directly or behind one that does; on SQLite, answered without it). */
  untilCallsReachedTheirRecords(burst: Array<Promise<unknown>>, count: number): Promise<void>;
  /** Lets records be written again. */
  release(): Promise<void>;
};

/**
 * Holds back the audit records of `tools`' calls, so that the site is killed
 * while they are not written: on PostgreSQL, a connection of the test's own
 * locks the audit table in SHARE mode (each record's insert waits); on
 * SQLite, which has no table locks, a trigger refuses their inserts (the
 * moment a crash before the insert leaves behind).
 */
async function holdAuditRecords(fixture: DatabaseFixture, tools: string[]): Promise<HeldAuditRecords> {
  if (fixture.dialect === 'postgres') {
    const lock = await holdPostgresLock(fixture.url, async (query) => {
      await query('lock table agentready_audit_record in share mode');
    });
    return {
      async untilCallsReachedTheirRecords(_burst, count) {
        await pollUntil(`${count} calls waiting for their audit records`, async () => {
          const { rows } = await sql<{ waiting: number }>`
            with recursive blocked(pid) as (
              select pid from pg_stat_activity where ${lock.pid}::int = any(pg_blocking_pids(pid))
              union
              select waiting.pid from pg_stat_activity waiting join blocked on blocked.pid = any(pg_blocking_pids(waiting.pid))
            )
            select count(*)::int as waiting from blocked`.execute(fixture.db);
          return (rows[0]?.waiting ?? 0) >= count ? true : undefined;
        });
      },
      release: lock.release,
    };
  }
  const names = tools.map((tool) => `'${tool}'`).join(', ');
  await sql
    .raw(
      `create trigger held_audit_records before insert on agentready_audit_record when new.tool in (${names}) begin select raise(abort, 'held by the test'); end`,
    )
    .execute(fixture.db);
  return {
    async untilCallsReachedTheirRecords(burst, count) {
      let answered = 0;
      await new Promise<void>((resolve) => {
        const counted = () => {
          answered += 1;
          if (answered === count) resolve();
        };
        for (const call of burst) call.then(counted, counted);
      });
    },
    async release() {
      await sql.raw('drop trigger held_audit_records').execute(fixture.db);
    },
  };
}

/** The ids of up to `limit` events: open for registration with places left (a day before the deadline at least), or any. */
async function eventIds(fixture: DatabaseFixture, options: { openForRegistration: boolean; limit: number }): Promise<string[]> {
  let query = fixture.db.selectFrom('events').select('public_id');
  if (options.openForRegistration) {
    query = query.where('remaining_capacity', '>', 5).where('registration_deadline_ms', '>', Date.now() + 24 * 60 * 60_000);
  }
  const rows = await query
    .orderBy('id', options.openForRegistration ? 'asc' : 'desc')
    .limit(options.limit)
    .execute();
  return rows.map((row) => row.public_id);
}

/** The person confirms a registration for each event that takes one (some may not), each with a commit key of its own. */
async function confirmedRegistrations(person: SitePerson, eventIds: string[]): Promise<Array<{ commit: RegistrationCommit; key: string }>> {
  const confirmed = await Promise.all(eventIds.map((eventId) => confirmRegistration(person, eventId).catch(() => undefined)));
  return confirmed.filter((commit) => commit !== undefined).map((commit) => ({ commit, key: randomUUID() }));
}

type AuditRow = { tool: string; outcome: string; replayed: boolean; resultingIds: string[] };
type EffectsAndRecords = { savedEventIds: string[]; registrationIds: string[]; records: AuditRow[] };

/** What the database holds after the processes: the person's saved events and registrations, and every audit record. */
async function effectsAndRecords(fixture: DatabaseFixture): Promise<EffectsAndRecords> {
  const saved = await fixture.db.selectFrom('saved_events').innerJoin('events', 'events.id', 'saved_events.event_id').select('events.public_id').execute();
  const registered = await fixture.db.selectFrom('registrations').select('public_id').execute();
  const records = await fixture.db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code', 'replayed', 'resulting_ids']).execute();
  return {
    savedEventIds: saved.map((row) => row.public_id),
    registrationIds: registered.map((row) => row.public_id),
    records: records.map((row) => ({
      tool: row.tool,
      outcome: row.outcome_code,
      replayed: Number(row.replayed) === 1,
      resultingIds: JSON.parse(row.resulting_ids) as string[],
    })),
  };
}

/**
 * Each saved event is named by exactly one successful `save_event` record that
 * is not a replay, each registration by exactly one such `register_for_event`
 * record; and no such record names something that does not exist.
 */
function expectEachEffectNamedByItsOwnRecord({ savedEventIds, registrationIds, records }: EffectsAndRecords): void {
  const made = (tool: string) => records.filter((record) => record.tool === tool && record.outcome === 'SUCCESS' && !record.replayed);
  const saveRecords = made('save_event');
  const registerRecords = made('register_for_event');
  const unrecorded = [
    ...savedEventIds.filter((id) => saveRecords.filter((record) => record.resultingIds.includes(id)).length !== 1),
    ...registrationIds.filter((id) => registerRecords.filter((record) => record.resultingIds.includes(id)).length !== 1),
  ];
  expect(unrecorded).toEqual([]);
  const claimedSaves = saveRecords.flatMap((record) => record.resultingIds);
  expect(claimedSaves.filter((id) => !savedEventIds.includes(id))).toEqual([]);
  const claimedRegistrations = registerRecords.map((record) => record.resultingIds[0]!);
  expect(claimedRegistrations.filter((id) => !registrationIds.includes(id))).toEqual([]);
}
