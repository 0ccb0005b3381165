/**
 * The three apps, each started as `npm start` starts it (@agentready/testing's
 * startSiteProcess, a fresh SQLite file), keep an idle kept-alive connection
 * open for 65 s and tell clients so (`Keep-Alive: timeout=65`): a client
 * whose next MCP call waits on its connection while the site is busy with
 * hundreds of others finds the connection still there, instead of a reset
 * (Node's 5 s default closed it under the waiting call, which then failed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSiteProcess, type SiteProcess } from '@agentready/testing';
import { afterAll, describe, expect, it } from 'vitest';

const appMain = (app: string) => fileURLToPath(new URL(`../../../apps/${app}/src/server/main.ts`, import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'agentready-kept-alive-'));
const started: SiteProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map((site) => site.kill()));
  rmSync(folder, { recursive: true, force: true });
});

/** A port of 127.0.0.1 free now (GiftGenius logs its SITE_URL, which names the port, so it gets one chosen beforehand). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Asks `url` for a stream with GET on a kept-alive connection (a stateless
 * `/mcp` answers 405 at once, with the connection's own headers: an answer
 * streamed as server-sent events carries the SDK's `Connection` header instead);
 * the answer's status and its Keep-Alive and Connection headers.
 */
function askForStream(url: string): Promise<{ status: number; keepAlive: string | undefined; connection: string | undefined }> {
  const agent = new Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
      response.resume();
      response.on('end', () => {
        agent.destroy();
        resolve({ status: response.statusCode ?? 0, keepAlive: response.headers['keep-alive'] as string | undefined, connection: response.headers.connection });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe.each([
  ['events', 'AgentReady Events is listening'],
  ['rawdata', 'Rawdata requests is listening'],
  ['giftgenius', 'GiftGenius is listening'],
])('%s started as npm start starts it', (app, listeningMessage) => {
  it('keeps an idle connection 65 s and says so in Keep-Alive', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const site = await startSiteProcess({
      entry: appMain(app),
      env: {
        PORT: String(port),
        DATABASE_URL: pathToFileURL(join(folder, `${app}.sqlite`)).href,
        DEMO_ACCOUNTS: 'off',
        TOOL_CALLS_PER_MINUTE: '0',
        ...(app === 'giftgenius' && { GIFTGENIUS_PROVIDER_PORT: '0' }),
      },
      listeningMessage,
    });
    started.push(site);
    const answer = await askForStream(`${site.url}/mcp`);
    expect(answer.status).toBe(405);
    expect(answer.connection).toBe('keep-alive');
    expect(answer.keepAlive).toBe('timeout=65');
  });
});
