/**
 * `/activity` on GiftGenius over real HTTP, as the server renders it (no
 * script): a person connects a chat host with OAuth (the official MCP
 * client), whose model suggests gifts, prepares a checkout and asks for a
 * gift that does not exist; the person clicks Confirm in the chat (the
 * widget's app-only call). Their activity page shows the chat app's calls
 * in words (tool titles, never tool names), the refusal in words, and their
 * own Confirm apart, linked to their checkouts; each row's reference is a
 * trace id the operator's `trace` command prints the journey of. Another
 * person sees none of it. Nobody signed in: the sign-in page. On SQLite and
 * PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePostgresForTests, TEST_CLIENT_NAME } from '@agentready/testing';
import { chatHostOver } from './support/chat-host.ts';
import { runGiftGeniusCommand } from './support/giftgenius-command.ts';
import { connectPerson, openSiteBrowser, type SiteBrowser } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius activity page tests' });

const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Each row of the list: its test id (a chat app's call or the person's own step), its lines' text (white space folded), its links and its reference. */
function rowsOf(page: HTMLElement) {
  return page.querySelectorAll('[data-testid=activity-list] > li').map((row) => ({
    kind: row.getAttribute('data-testid'),
    text: row
      .querySelectorAll('p')
      .map((line) => line.text.replace(/\s+/g, ' ').trim())
      .join(' '),
    links: row.querySelectorAll('a').map((link) => link.getAttribute('href') ?? ''),
    reference: row.querySelector('[data-testid=activity-reference] code')?.text ?? '',
  }));
}

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('/activity on GiftGenius (%s)', (dialect) => {
  let site: GiftGeniusSite;
  let browser: SiteBrowser;
  let stranger: SiteBrowser;
  let sessionId = '';

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: false } });
    const person = await site.addPerson('buyer@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    try {
      const host = chatHostOver(connected.client);
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
        recipient: { relationship: 'friend', age: 30 },
        limit: 12,
      });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      const giftId = found.envelope.data.gifts.find((gift) => gift.inStock)!.giftId;
      const review = await host.modelCall('prepare_checkout', { gift_id: giftId, quantity: 1 });
      if (!review.envelope.ok) throw new Error(review.envelope.message);
      const missing = await host.modelCall('prepare_checkout', { gift_id: 'gift-that-does-not-exist', quantity: 1 });
      expect(missing.envelope.ok).toBe(false);
      const widget = review.meta['giftgenius/checkout'] as { confirmationToken: string; draftId: string; draftVersion: number };
      const created = await host.appCall<{ checkout: { sessionId: string } }>('create_checkout_session', {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      });
      if (!created.envelope.ok) throw new Error(created.envelope.message);
      sessionId = created.envelope.data.checkout.sessionId;
    } finally {
      await connected.close();
    }
    browser = await openSiteBrowser(site.url, person);
    stranger = await openSiteBrowser(site.url, await site.addPerson('not-a-buyer@example.com'));
    // A whole journey through the real surfaces: generous under a loaded machine.
  }, 120_000);
  afterAll(async () => site?.close());

  it('sends a visitor who is not signed in to sign in, and back to /activity after', async () => {
    const answer = await fetch(`${site.url}/activity`, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/signin?next=${encodeURIComponent('/activity')}`);
  });

  it("is linked from the signed-in person's navigation", async () => {
    const page = parse((await browser.get('/account')).html);
    expect(page.querySelectorAll('header nav a').map((link) => [link.text.trim(), link.getAttribute('href')])).toContainEqual(['Activity', '/activity']);
  });

  it("shows the chat app's calls in words, the refusal in words, and the person's own Confirm apart, linked to their checkouts", async () => {
    const answer = await browser.get('/activity');
    expect(answer.status).toBe(200);
    const page = parse(answer.html);
    expect(page.querySelector('h1')?.text).toBe('Activity');
    const rows = rowsOf(page);
    // Newest first: the Confirm, the refused prepare, the prepare, the suggestions.
    expect(rows.map((row) => row.kind)).toEqual(['activity-own', 'activity-item', 'activity-item', 'activity-item']);
    const [confirm, refused, prepare, suggest] = rows;

    expect(suggest!.text).toMatch(
      new RegExp(`^\\d{1,2} [A-Z][a-z]{2,3} \\d{4}, \\d{2}:\\d{2}: ${TEST_CLIENT_NAME} \\(access grant oag-[\\w-]+\\) used Suggest gifts\\. Done\\. `),
    );
    expect(prepare!.text).toContain(`${TEST_CLIENT_NAME}`);
    expect(prepare!.text).toContain('used Prepare a checkout. Done.');
    expect(refused!.text).toContain('used Prepare a checkout. Refused: nothing by that ID.');
    expect(confirm!.text).toContain(`You confirmed a checkout (checkout ${sessionId}) in ${TEST_CLIENT_NAME}.`);
    expect(confirm!.links).toEqual(['/account#recent-checkouts']);

    const text = page.querySelector('main')!.text;
    expect(text).not.toMatch(/suggest_gifts|prepare_checkout|create_checkout_session|NOT_FOUND/);
    expect(answer.html).not.toContain('buyer@example.com');
    expect(answer.html).not.toMatch(/\b(?:ses|acc)-[A-Za-z0-9_-]{16}/);
    expect(page.querySelector('[data-testid=time-zone-note]')?.text).toBe('Times on this site are Taipei time (UTC+8).');
  });

  // The operator's command runs as its own process (node and tsx start): generous under a loaded machine.
  it("gives each row its call's trace id, which the operator's trace command prints the journey of", { timeout: 120_000 }, async () => {
    const rows = rowsOf(parse((await browser.get('/activity')).html));
    expect(rows.every((row) => TRACE_ID.test(row.reference))).toBe(true);
    const confirm = rows.find((row) => row.kind === 'activity-own')!;
    const trace = await runGiftGeniusCommand(['trace', confirm.reference], { DATABASE_URL: site.databaseUrl });
    expect(trace.stderr).toBe('');
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain(confirm.reference);
    expect(trace.stdout).toContain('prepare_checkout');
    expect(trace.stdout).toContain(`result ${sessionId}`);
  });

  it('shows another person none of it, and says a hand-edited link to older activity is not valid, reading nothing', async () => {
    const theirs = await stranger.get('/activity');
    expect(theirs.status).toBe(200);
    const page = parse(theirs.html);
    expect(rowsOf(page)).toEqual([]);
    expect(page.querySelector('[data-testid=activity-empty]')?.text.replace(/\s+/g, ' ').trim()).toBe('No agent has acted for you yet. Connect an agent');
    expect(theirs.html).not.toContain(TEST_CLIENT_NAME);
    expect(theirs.html).not.toContain(sessionId);

    const edited = await browser.get(`/activity?before=${encodeURIComponent("' or 1=1 --")}`);
    expect(edited.status).toBe(400);
    const refused = parse(edited.html);
    expect(refused.querySelector('[data-testid=activity-error]')?.text.replace(/\s+/g, ' ').trim()).toBe(
      'This link to older activity is not valid. Show the newest activity',
    );
    expect(rowsOf(refused)).toEqual([]);
  });
});
