/**
 * The `agentready-giftgenius` command as an operator uses it, on SQLite and
 * PostgreSQL: `person add` gives a person an account (the password read from
 * standard input, never an argument) with which a chat host then connects
 * them; `trace` prints a checkout's journey from the audit evidence.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePostgresForTests } from '@agentready/testing';
import { chatHostOver } from './support/chat-host.ts';
import { runGiftGeniusCommand } from './support/giftgenius-command.ts';
import { connectPerson, openSiteBrowser } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius command tests' });

const PASSWORD = 'a long enough password';

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('agentready-giftgenius on %s', (dialect) => {
  let site: GiftGeniusSite;
  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: false } });
  });
  afterAll(async () => site?.close());

  const canSignIn = (email: string, password: string) =>
    openSiteBrowser(site.url, { email, password }).then(
      () => true,
      () => false,
    );

  it('person add creates an account from the password on standard input; a chat host then connects the person', { timeout: 60_000 }, async () => {
    const run = await runGiftGeniusCommand(['person', 'add', 'New.Person@example.com'], { DATABASE_URL: site.databaseUrl }, `${PASSWORD}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created the account new.person@example.com');
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    const connected = await connectPerson({ siteUrl: site.url, email: 'new.person@example.com', password: PASSWORD });
    try {
      const { envelope } = await chatHostOver(connected.client).modelCall('suggest_gifts', { recipient: { relationship: 'friend' }, interests: ['tea'] });
      expect(envelope.ok).toBe(true);
    } finally {
      await connected.close();
    }
    const again = await runGiftGeniusCommand(['person', 'add', 'new.person@example.com'], { DATABASE_URL: site.databaseUrl }, 'another long password\n');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(await canSignIn('new.person@example.com', 'another long password')).toBe(false);
  });

  it.each([
    ['a password given as an argument', ['person', 'add', 'arg@example.com', '--password', PASSWORD], PASSWORD, 'never an argument'],
    ['no password at all', ['person', 'add', 'empty@example.com'], '', 'No password was given'],
    ['a password too short', ['person', 'add', 'short@example.com'], 'short\n', 'at least 10 characters'],
    ['an address that is not one', ['person', 'add', 'not-an-address'], `${PASSWORD}\n`, 'e-mail address'],
    ['no address', ['person', 'add'], `${PASSWORD}\n`, 'one e-mail address'],
  ])('person add refuses %s with exit code 2 and one line, and creates nothing', async (_case, args, input, problem) => {
    const run = await runGiftGeniusCommand(args, { DATABASE_URL: site.databaseUrl }, input);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(problem);
    expect(run.stdout).toBe('');
    const email = args[2];
    if (email !== undefined) expect(await canSignIn(email, PASSWORD)).toBe(false);
  });

  it('trace prints a checkout’s journey: the prepare, the person’s Confirm and its replay, with the draft, the confirmation and the session', {
    timeout: 60_000,
  }, async () => {
    const connected = await connectPerson({ siteUrl: site.url, ...(await site.addPerson(`trace-${dialect}@example.com`)) });
    const host = chatHostOver(connected.client);
    try {
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
        recipient: { relationship: 'friend', age: 30 },
        limit: 12,
      });
      const giftId = found.envelope.ok ? found.envelope.data.gifts.find((gift) => gift.inStock)!.giftId : '';
      const review = await host.modelCall('prepare_checkout', { gift_id: giftId, quantity: 1 });
      const widget = review.meta['giftgenius/checkout'] as { confirmationToken: string; draftId: string; draftVersion: number };
      const confirm = {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      };
      expect((await host.appCall('create_checkout_session', confirm)).envelope.ok).toBe(true);
      expect((await host.appCall('create_checkout_session', confirm)).envelope.ok).toBe(true);
      const [commit] = await site.db
        .selectFrom('agentready_audit_record')
        .select('trace_id')
        .where('tool', '=', 'create_checkout_session')
        .orderBy('occurred_at')
        .execute();

      const trace = await runGiftGeniusCommand(['trace', commit!.trace_id], { DATABASE_URL: site.databaseUrl });
      expect(trace.stderr).toBe('');
      expect(trace.code).toBe(0);
      const steps = trace.stdout.split('\n').filter((line) => !line.startsWith('      ') && line !== '');
      expect(steps.map((line) => line.match(/(prepare_checkout|create_checkout_session)\s+\S+\s+\S+.*?\s(SUCCESS(?: \(replayed\))?)/)?.slice(1))).toEqual([
        ['prepare_checkout', 'SUCCESS'],
        ['create_checkout_session', 'SUCCESS'],
        ['create_checkout_session', 'SUCCESS (replayed)'],
      ]);
      expect(steps[1]!.startsWith('>')).toBe(true);
      expect(trace.stdout).toContain(`draft ${widget.draftId} v1`);
      expect(trace.stdout).toMatch(/confirmation cnf-/);
      const [session] = (await site.providerSessions()).filter((one) => one.client_reference_id?.startsWith(widget.draftId));
      expect(trace.stdout).toContain(`result ${session!.id}`);
      for (const secret of [widget.confirmationToken, connected.accessToken]) expect(trace.stdout).not.toContain(secret);

      const json = await runGiftGeniusCommand(['trace', commit!.trace_id, '--json'], { DATABASE_URL: site.databaseUrl });
      expect((JSON.parse(json.stdout) as Array<{ tool: string }>).map((step) => step.tool)).toEqual([
        'prepare_checkout',
        'create_checkout_session',
        'create_checkout_session',
      ]);
    } finally {
      await connected.close();
    }
  });

  it('trace refuses a malformed id (1) and says when no record has the id (1)', async () => {
    const malformed = await runGiftGeniusCommand(['trace', 'not-a-trace'], { DATABASE_URL: site.databaseUrl });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('not a trace id');
    const unknown = await runGiftGeniusCommand(['trace', randomUUID()], { DATABASE_URL: site.databaseUrl });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No audit record has the trace id');
  });
});

describe('agentready-giftgenius without its database', () => {
  it('never creates one: person add and trace stop with exit code 2 and one line', async () => {
    const env = { DATABASE_URL: 'file:/nonexistent-folder/giftgenius.sqlite' };
    for (const run of [
      await runGiftGeniusCommand(['person', 'add', 'x@example.com'], env, `${PASSWORD}\n`),
      await runGiftGeniusCommand(['trace', randomUUID()], env),
    ]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^No GiftGenius database at the SQLite file \/nonexistent-folder\/giftgenius.sqlite \(DATABASE_URL\)/);
    }
  });

  it('says how it is called when the command is unknown', async () => {
    const run = await runGiftGeniusCommand(['adduser', 'x@example.com']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: agentready-giftgenius person add <email>');
  });
});
