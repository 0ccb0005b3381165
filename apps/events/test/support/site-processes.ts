/**
 * @module The Events site as separate processes on one PostgreSQL database,
 * for tests and the reliability run (bench/reliability.ts): processes started
 * as `npm start` starts the site (src/server/main.ts under `node --import
 * tsx`) and killed with SIGKILL; a connection of the test's own that holds a
 * lock so that a commit stops at a known point; waiting for a commit's claim
 * on its idempotency key; a person's confirmation and commit sent to any of
 * the processes (one session works on all: it lives in the database); and a
 * crash in the middle of a commit followed by a fresh process and a retry.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { idempotencyKeyHash } from 'agentready/runtime';
import { holdPostgresLock, pollUntil, startSiteProcess, waitForLockWaiters, type HeldLock, type SiteProcess } from '@agentready/testing';

export type { HeldLock, SiteProcess } from '@agentready/testing';
import type { Kysely } from 'kysely';
import type { EventsDatabase } from '../../src/store/schema.ts';
import { POSTGRES_TEST_URL } from './events-database.ts';
import type { JsonObject, SitePerson } from './site-person.ts';

const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));

/** Options of {@link startEventsProcess}. */
export type SiteProcessOptions = {
  /** IDEMPOTENCY_LEASE_SECONDS of the process (default: the site's, 30). */
  leaseSeconds?: number;
  /** The PostgreSQL whose test-schema lock the start holds (default {@link POSTGRES_TEST_URL}). */
  adminUrl?: string;
};

/**
 * Starts the Events site on `databaseUrl` (a database already migrated, so
 * several processes can start on it) on a free port of 127.0.0.1, with the
 * demo accounts off and no tool-call limit (@agentready/testing, startSiteProcess).
 *
 * @returns once the process logs that it listens.
 * @throws Error when the process ends before it listens (with the end of its stderr).
 */
export async function startEventsProcess(databaseUrl: string, options: SiteProcessOptions = {}): Promise<SiteProcess> {
  return startSiteProcess({
    entry: MAIN,
    env: {
      DATABASE_URL: databaseUrl,
      DEMO_ACCOUNTS: 'off',
      TOOL_CALLS_PER_MINUTE: '0',
      ...(options.leaseSeconds !== undefined && { IDEMPOTENCY_LEASE_SECONDS: String(options.leaseSeconds) }),
    },
    listeningMessage: 'AgentReady Events is listening',
    adminUrl: options.adminUrl ?? POSTGRES_TEST_URL,
  });
}

/**
 * What to lock: an event's row (`select … for update`: a registration waits
 * at its conditional update of the event's places, inside its transaction,
 * after its confirmation was consumed), or the idempotency records table in
 * SHARE mode (every claim's insert waits: no claim can land, nothing else is blocked from reading).
 */
export type LockTarget = { eventRow: string } | { idempotencyClaims: true };

/**
 * Takes `target`'s lock on a new connection to `databaseUrl`, in a
 * transaction left open until `release()`.
 *
 * @throws Error when the event does not exist (nothing would be locked).
 */
export async function holdLock(databaseUrl: string, target: LockTarget): Promise<HeldLock> {
  return holdPostgresLock(databaseUrl, async (query) => {
    if ('eventRow' in target) {
      const locked = await query('select id from events where public_id = $1 for update', [target.eventRow]);
      if (locked.rowCount !== 1) throw new Error(`No event ${target.eventRow} to lock.`);
    } else {
      await query('lock table agentready_idempotency_record in share mode');
    }
  });
}

/** Waits until at least `count` statements of other connections wait for a lock the connection `lockPid` holds. */
export async function waitForWaiters(db: Kysely<EventsDatabase>, lockPid: number, count = 1): Promise<void> {
  await waitForLockWaiters(db, lockPid, count);
}

/** A key's idempotency record as the database holds it. */
export type KeyRecord = { state: 'running' | 'done'; leaseUntilMs: number };

/** The record of idempotency key `key` (any owner, any operation), or undefined when there is none. */
export async function keyRecord(db: Kysely<EventsDatabase>, key: string): Promise<KeyRecord | undefined> {
  const row = await db
    .selectFrom('agentready_idempotency_record')
    .select(['state', 'lease_until_ms'])
    .where('key_hash', '=', idempotencyKeyHash(key))
    .executeTakeFirst();
  return row && { state: row.state, leaseUntilMs: Number(row.lease_until_ms) };
}

/** Waits until key `key`'s record exists in `state` (a commit claimed it: `running`; its answer is stored: `done`). */
export async function waitForKeyRecord(db: Kysely<EventsDatabase>, key: string, state: KeyRecord['state']): Promise<KeyRecord> {
  return pollUntil(`the ${state} record of an idempotency key`, async () => {
    const record = await keyRecord(db, key);
    return record?.state === state ? record : undefined;
  });
}

/** What a commit's body holds: the confirmed draft version and its token (as `POST /api/registrations` takes them). */
export type RegistrationCommit = { draft_id: string; draft_version: number; confirmation_token: string };

/**
 * The person confirms a registration for `eventId` as the register page's
 * Submit does (`POST /api/confirmations`, through the process `person` was
 * opened on).
 *
 * @returns the commit body for that confirmation.
 * @throws Error when the confirmation is not answered 201.
 */
export async function confirmRegistration(
  person: SitePerson,
  eventId: string,
  attendee = { name: 'Lin Mei', email: 'lin.mei@example.com' },
): Promise<RegistrationCommit> {
  const confirmed = await person.call('POST', '/api/confirmations', { action: 'register', event_id: eventId, ...attendee });
  if (confirmed.status !== 201) throw new Error(`The confirmation answered ${confirmed.status}: ${JSON.stringify(confirmed.body)}`);
  const draft = confirmed.body['draft'] as { id: string; version: number };
  return { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] as string };
}

/** A commit's answer as a client reads it. */
export type CommitAnswer = {
  status: number;
  /** The header `Idempotent-Replayed: true` was sent (the first call's answer again). */
  replayed: boolean;
  /** The `Retry-After` header, or null. */
  retryAfter: string | null;
  body: JsonObject;
};

/**
 * Sends `POST /api/registrations` with `commit` under `Idempotency-Key: key`
 * to the process at `siteUrl`, with the person's session cookie and CSRF token.
 *
 * @param signal aborts the request (the client gives up; the site is not told otherwise).
 * @throws what `fetch` throws: the connection failed or the request was aborted.
 */
export async function sendRegistrationCommit(
  siteUrl: string,
  person: Pick<SitePerson, 'cookie' | 'csrfToken'>,
  commit: RegistrationCommit,
  key: string,
  signal?: AbortSignal,
): Promise<CommitAnswer> {
  const response = await fetch(`${siteUrl}/api/registrations`, {
    method: 'POST',
    headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(commit),
    ...(signal !== undefined && { signal }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as JsonObject,
  };
}

/**
 * Sends the commit as a client that honours 409 IN_PROGRESS does: again after
 * each answer's `Retry-After` seconds, until another answer comes.
 *
 * @returns that answer, and the IN_PROGRESS answers before it.
 * @throws Error when it is still IN_PROGRESS after `giveUpMs` (default 90 000; a guard, not a measurement).
 */
export async function sendRegistrationCommitUntilSettled(
  siteUrl: string,
  person: Pick<SitePerson, 'cookie' | 'csrfToken'>,
  commit: RegistrationCommit,
  key: string,
  giveUpMs = 90_000,
): Promise<{ answer: CommitAnswer; inProgress: CommitAnswer[] }> {
  const inProgress: CommitAnswer[] = [];
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    const answer = await sendRegistrationCommit(siteUrl, person, commit, key);
    if (answer.status !== 409 || answer.body['code'] !== 'IN_PROGRESS') return { answer, inProgress };
    if (Date.now() > giveUpAt) throw new Error('The commit was still in progress when the client gave up retrying.');
    inProgress.push(answer);
    await delay(Number(answer.retryAfter ?? '1') * 1000);
  }
}

/**
 * The person's active registrations as the process at `siteUrl` lists them
 * (`GET /api/registrations` with their session cookie): their public ids.
 *
 * @throws Error when the list is not answered 200.
 */
export async function registrationIdsAt(siteUrl: string, person: Pick<SitePerson, 'cookie'>): Promise<string[]> {
  const response = await fetch(`${siteUrl}/api/registrations`, { headers: { cookie: person.cookie } });
  if (response.status !== 200) throw new Error(`The registrations list answered ${response.status}.`);
  const { registrations } = (await response.json()) as { registrations: Array<{ id: string }> };
  return registrations.map((registration) => registration.id);
}

/** Sets an event's capacity and places left (seats nobody yet). */
export async function setEventPlaces(db: Kysely<EventsDatabase>, eventId: string, capacity: number, remaining: number): Promise<void> {
  await db.updateTable('events').set({ capacity, remaining_capacity: remaining }).where('public_id', '=', eventId).execute();
}

/** An event's places left and its active registrations' public ids, as the database holds them. */
export async function eventSeats(db: Kysely<EventsDatabase>, eventId: string): Promise<{ remaining: number; registrationIds: string[] }> {
  const event = await db.selectFrom('events').select(['id', 'remaining_capacity']).where('public_id', '=', eventId).executeTakeFirstOrThrow();
  const registrations = await db.selectFrom('registrations').select('public_id').where('event_id', '=', event.id).where('status', '=', 'active').execute();
  return { remaining: Number(event.remaining_capacity), registrationIds: registrations.map((row) => row.public_id) };
}

/**
 * A distinct loopback address for person number `n` (0 ≤ n < 62 500):
 * 127.1.x.y, so each person signs up from an address of their own.
 */
export function loopbackAddress(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 62_500) throw new RangeError('A loopback person number is 0 to 62 499.');
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/**
 * Where a crash stops a registration: `inside-transaction`, while it waits to
 * take a place (its key claimed, its confirmation consumed within its
 * transaction, nothing committed); `before-transaction`, while its claim's
 * insert waits, so that the claim lands only after the process is gone and
 * no transaction of it ever starts.
 */
export type CrashPoint = 'inside-transaction' | 'before-transaction';

/** What {@link crashMidCommitThenRetry} saw. */
export type CrashRecovery = {
  /** The key's record when the process was killed: running (inside), none yet (before). */
  recordAtKill: KeyRecord | undefined;
  /** The record once the lock was released: the dead process's claim. */
  orphanedClaim: KeyRecord;
  /** Whether the killed process's client got any answer (it should not: the connection dies). */
  killedCallAnswered: boolean;
  /** The retry's IN_PROGRESS answers while the dead claim's lease held. */
  inProgress: CommitAnswer[];
  /** The retry's answer once the lease had passed. */
  recovered: CommitAnswer;
  /** The same call once more, after that. */
  replay: CommitAnswer;
  /** The fresh process the retries went to; the caller kills it. */
  successor: SiteProcess;
};

/**
 * A registration's process dies mid-commit, and the person's client retries
 * on a fresh process: holds the lock for `crashPoint` ({@link holdLock}),
 * sends the commit to `victim`, waits until it is stopped there (and, inside
 * the transaction, until its claim is recorded), SIGKILLs `victim`, releases
 * the lock (the dead connection's transaction rolls back; a claim's insert
 * still waiting commits), starts a fresh process on the same database, and
 * sends the same commit with the same key until it is not IN_PROGRESS, then
 * once more.
 *
 * @param options.successor the fresh process's options (its lease, say).
 * @throws Error when a step's wait gives up or a process does not start; the lock is released either way.
 */
export async function crashMidCommitThenRetry(options: {
  db: Kysely<EventsDatabase>;
  databaseUrl: string;
  victim: SiteProcess;
  person: Pick<SitePerson, 'cookie' | 'csrfToken'>;
  commit: RegistrationCommit;
  key: string;
  eventId: string;
  crashPoint: CrashPoint;
  successor?: SiteProcessOptions;
}): Promise<CrashRecovery> {
  const { db, databaseUrl, victim, person, commit, key } = options;
  const lock = await holdLock(databaseUrl, options.crashPoint === 'inside-transaction' ? { eventRow: options.eventId } : { idempotencyClaims: true });
  try {
    const killedCall = sendRegistrationCommit(victim.url, person, commit, key).then(
      () => true,
      () => false,
    );
    if (options.crashPoint === 'inside-transaction') await waitForKeyRecord(db, key, 'running');
    await waitForWaiters(db, lock.pid, 1);
    const recordAtKill = await keyRecord(db, key);
    await victim.kill();
    const killedCallAnswered = await killedCall;
    await lock.release();
    const orphanedClaim = await waitForKeyRecord(db, key, 'running');
    const successor = await startEventsProcess(databaseUrl, options.successor);
    try {
      const { answer: recovered, inProgress } = await sendRegistrationCommitUntilSettled(successor.url, person, commit, key);
      const replay = await sendRegistrationCommit(successor.url, person, commit, key);
      return { recordAtKill, orphanedClaim, killedCallAnswered, inProgress, recovered, replay, successor };
    } catch (error) {
      await successor.kill();
      throw error;
    }
  } finally {
    await lock.release();
  }
}
