/**
 * `agentready audit` on AgentReady Events, started as `npm start` starts it
 * (@agentready/testing's startSiteProcess, a fresh SQLite file): over MCP at
 * `/mcp` and as the page `/events` in Chromium, it finds no error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSiteProcess, type SiteProcess } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditJson } from './support/audit-command.ts';

const EVENTS_MAIN = fileURLToPath(new URL('../../../apps/events/src/server/main.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'agentready-audit-events-'));
let site: SiteProcess;

beforeAll(async () => {
  site = await startSiteProcess({
    entry: EVENTS_MAIN,
    env: { DATABASE_URL: pathToFileURL(join(folder, 'events.sqlite')).href, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0' },
    listeningMessage: 'AgentReady Events is listening',
  });
});

afterAll(async () => {
  await site?.kill();
  rmSync(folder, { recursive: true, force: true });
});

describe('AgentReady Events', () => {
  it('over MCP: five tools, no finding, score 100, its read-only search called', async () => {
    const { code, report } = await auditJson([`${site.url}/mcp`, '--call-read-tools']);
    expect(report.findings).toEqual([]);
    expect(report.tools.map((tool) => tool.name)).toEqual([
      'search_events',
      'get_event_details',
      'save_event',
      'prepare_event_registration',
      'prepare_registration_cancellation',
    ]);
    expect(report.calls.called).toEqual(['search_events']);
    expect([code, report.score]).toEqual([0, 100]);
  });

  it('as a page in Chromium: the tools of /events, each marked, with no error', async () => {
    const { code, report } = await auditJson([`${site.url}/events`, '--depth', '0']);
    expect(report.kind).toBe('page');
    expect(report.tools.map((tool) => tool.name).sort()).toEqual(['get_event_details', 'save_event', 'search_events']);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
  });
});
