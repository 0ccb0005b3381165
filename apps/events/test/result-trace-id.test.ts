/**
 * Every tool result of the page's tools names its call's trace id in
 * `_meta["agentready/traceId"]`, as MCP results do: the answer of the tool
 * route (`POST /api/tools/:name`, done, refused by the pipeline, refused by
 * the CSRF check before it), and the result an agent in the page gets
 * through Chromium's WebMCP. The id is the call's audit record's, and the
 * activity page shows it as that call's reference. A refusal the page makes
 * itself, before anything is sent, names none: the site recorded nothing.
 */
import { TRACE_ID_META_KEY } from 'agentready';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { AppVisitor } from './support/app-visitor.ts';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { createTestClock, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Traced = { ok: boolean; code: string; _meta?: Record<string, unknown> };

/** The trace id a result names, checked to be a UUID. */
function traceIdOf(result: unknown): string {
  const traceId = (result as Traced)._meta?.[TRACE_ID_META_KEY];
  expect(traceId).toMatch(TRACE_ID);
  return traceId as string;
}

const [sqlite] = await storeDialects('the tool route trace id tests');

describe('the tool route’s answers', () => {
  let fixture: DatabaseFixture;
  let app: EventsApp;
  let person: AppVisitor;

  beforeAll(async () => {
    fixture = await sqlite!.open();
    app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }), webRoot: '/nonexistent' });
    person = await new AppVisitor(() => app).start();
    await person.signUp();
  });
  afterAll(async () => {
    await app?.closeMcp();
    await fixture?.close();
  });

  /** The audit records of `traceIds`, in the order asked: tool and outcome. */
  async function records(traceIds: string[]): Promise<Array<[string, string]>> {
    const rows = await fixture.db
      .selectFrom('agentready_audit_record')
      .select(['trace_id', 'tool', 'outcome_code'])
      .where('trace_id', 'in', traceIds)
      .execute();
    return traceIds.map((traceId) => {
      const row = rows.find((candidate) => candidate.trace_id === traceId);
      return row ? [row.tool, row.outcome_code] : ['no record', ''];
    });
  }

  it('name each call’s own audit record: done, refused by the tool, refused before it ran, an unknown tool', async () => {
    const done = await person.call('POST', '/api/tools/save_event', { event_id: OPEN_EVENT });
    const refused = await person.call('POST', '/api/tools/get_event_details', { event_id: 'evt-no-such-event' });
    const forged = await person.call('POST', '/api/tools/save_event', { event_id: OPEN_EVENT }, { csrf: null });
    const unknown = await person.call('POST', '/api/tools/no_such_tool', {});
    expect([done.status, refused.status, forged.status, unknown.status]).toEqual([200, 200, 403, 404]);
    expect([done.body, refused.body, forged.body, unknown.body]).toMatchObject([
      { ok: true, code: 'SUCCESS' },
      { ok: false, code: 'NOT_FOUND' },
      { ok: false, code: 'FORBIDDEN' },
      { ok: false, code: 'NOT_FOUND' },
    ]);
    const ids = [done, refused, forged, unknown].map((answer) => traceIdOf(answer.body));
    expect(new Set(ids).size).toBe(4);
    expect(await records(ids)).toEqual([
      ['save_event', 'SUCCESS'],
      ['get_event_details', 'NOT_FOUND'],
      ['save_event', 'FORBIDDEN'],
      ['no_such_tool', 'NOT_FOUND'],
    ]);
  });
});

describe('a page tool’s result in Chromium’s WebMCP', () => {
  let browser: Browser;
  let server: EventsServer;

  beforeAll(async () => {
    browser = await launchWebMcpChromium();
    server = await startEventsServer();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('names the call the activity page lists, under the same reference', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    await signUpInBrowser(context, server.url);
    const page = await context.newPage();
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toContain('save_event');

    // The page refuses another event than the one it shows before sending anything: the site has no record of it, so no trace id.
    const refusedByPage = (await page.webmcp.callTool('save_event', { event_id: 'evt-ai-agents-meetup-taipei' })) as Traced;
    expect(refusedByPage).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH' });
    expect(refusedByPage._meta).toBeUndefined();
    const saved = (await page.webmcp.callTool('save_event', { event_id: OPEN_EVENT })) as Traced;
    expect(saved).toMatchObject({ ok: true, code: 'SUCCESS' });
    const traceId = traceIdOf(saved);
    const record = await server.db
      .selectFrom('agentready_audit_record')
      .select(['tool', 'surface', 'outcome_code'])
      .where('trace_id', '=', traceId)
      .executeTakeFirst();
    expect(record).toEqual({ tool: 'save_event', surface: 'webmcp', outcome_code: 'SUCCESS' });

    await page.goto(`${server.url}/activity`);
    await page.locator(byTestId('activity-reference')).first().waitFor();
    expect(await page.locator(byTestId('activity-reference')).allTextContents()).toEqual([expect.stringContaining(traceId)]);
    await context.close();
  });
});
