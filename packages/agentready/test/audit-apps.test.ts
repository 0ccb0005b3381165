/**
 * `agentready audit` on the three apps, each started as `npm start` starts it
 * (@agentready/testing's startSiteProcess, a fresh SQLite file): Events over
 * MCP at `/mcp` and as the page `/events` in Chromium, Rawdata requests and
 * GiftGenius over MCP. None has a finding. GiftGenius answers 401 to a call of
 * a tool that acts for a person: the audit leaves that probe out and goes on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSiteProcess, type SiteProcess } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditJson } from './support/audit-command.ts';

const appMain = (app: string) => fileURLToPath(new URL(`../../../apps/${app}/src/server/main.ts`, import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'agentready-audit-apps-'));
const started: SiteProcess[] = [];

/** Starts `app` on a fresh SQLite file in the test's folder, demo accounts off, no tool-call limit. */
async function startApp(app: string, listeningMessage: string, env: Record<string, string> = {}): Promise<SiteProcess> {
  const site = await startSiteProcess({
    entry: appMain(app),
    env: { DATABASE_URL: pathToFileURL(join(folder, `${app}.sqlite`)).href, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0', ...env },
    listeningMessage,
  });
  started.push(site);
  return site;
}

/** A port of 127.0.0.1 free now (GiftGenius logs its SITE_URL, which names the port, so it gets one chosen beforehand). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

afterAll(async () => {
  await Promise.all(started.map((site) => site.kill()));
  rmSync(folder, { recursive: true, force: true });
});

describe('AgentReady Events', () => {
  let site: SiteProcess;
  beforeAll(async () => {
    site = await startApp('events', 'AgentReady Events is listening');
  });

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

describe('Rawdata requests and GiftGenius', () => {
  let rawdata: SiteProcess;
  let giftgenius: SiteProcess;
  beforeAll(async () => {
    [rawdata, giftgenius] = await Promise.all([
      startApp('rawdata', 'Rawdata requests is listening'),
      freePort().then((port) => startApp('giftgenius', 'GiftGenius is listening', { PORT: String(port), GIFTGENIUS_PROVIDER_PORT: '0' })),
    ]);
  });

  it('Rawdata requests over MCP: no finding, exit code 0', async () => {
    const { code, report } = await auditJson([`${rawdata.url}/mcp`, '--call-read-tools']);
    expect(report.findings).toEqual([]);
    expect(report.tools).toHaveLength(5);
    expect(code).toBe(0);
  });

  it('GiftGenius over MCP, whose tools act for a signed-in person: no finding, exit code 0', async () => {
    const { code, report } = await auditJson([`${giftgenius.url}/mcp`, '--call-read-tools']);
    expect(report.findings).toEqual([]);
    expect(report.tools).toHaveLength(3);
    expect(code).toBe(0);
  });
});
