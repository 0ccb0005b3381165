/**
 * Every commit's audit record names what it made, on a real Events server:
 * the person's register and cancel (the site's commit tools, run from their
 * clicks) each leave a record whose resulting IDs hold the registration, and
 * a repeated request with the same idempotency key replays that answer with
 * a record that names it too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';

let server: EventsServer;
let person: SitePerson;

beforeAll(async () => {
  server = await startEventsServer();
  person = await openSitePerson(server.url);
});
afterAll(async () => server?.close());

/** The outcome and resulting IDs of each audit record of `tool`, oldest first. */
async function recordsOf(tool: string): Promise<Array<{ outcome: string; resultingIds: string[] }>> {
  const rows = await server.db
    .selectFrom('agentready_audit_record')
    .select(['outcome_code', 'resulting_ids'])
    .where('tool', '=', tool)
    .orderBy('occurred_at')
    .execute();
  return rows.map((row) => ({ outcome: row.outcome_code, resultingIds: JSON.parse(row.resulting_ids) as string[] }));
}

it('register_for_event and cancel_registration name the registration they made or cancelled (and its event), replays included', async () => {
  const confirmed = await person.call('POST', '/api/confirmations', {
    action: 'register',
    event_id: OPEN_EVENT,
    name: 'Ada Lovelace',
    email: 'ada@example.org',
  });
  const draft = confirmed.body['draft'] as { id: string; version: number };
  const register = { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] };
  const key = randomUUID();
  const registered = await person.call('POST', '/api/registrations', register, { 'idempotency-key': key });
  expect(registered.status).toBe(201);
  const registrationId = (registered.body['registration'] as { id: string }).id;
  // The same click again (a retry): the stored answer, nothing registered twice.
  expect((await person.call('POST', '/api/registrations', register, { 'idempotency-key': key })).body['registration']).toMatchObject({ id: registrationId });
  expect(await recordsOf('register_for_event')).toEqual([
    { outcome: 'SUCCESS', resultingIds: [registrationId, OPEN_EVENT] },
    { outcome: 'SUCCESS', resultingIds: [registrationId, OPEN_EVENT] },
  ]);

  const cancelConfirmed = await person.call('POST', '/api/confirmations', { action: 'cancel', registration_id: registrationId });
  const cancelDraft = cancelConfirmed.body['draft'] as { id: string; version: number };
  const cancelled = await person.call(
    'POST',
    `/api/registrations/${registrationId}/cancel`,
    { draft_id: cancelDraft.id, draft_version: cancelDraft.version, confirmation_token: cancelConfirmed.body['confirmationToken'] },
    { 'idempotency-key': randomUUID() },
  );
  expect(cancelled.body['registration']).toMatchObject({ id: registrationId, status: 'cancelled' });
  expect(await recordsOf('cancel_registration')).toEqual([{ outcome: 'SUCCESS', resultingIds: [registrationId] }]);
});
