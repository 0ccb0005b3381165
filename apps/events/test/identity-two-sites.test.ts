/**
 * @module Two site processes on one PostgreSQL database (as behind a load
 * balancer) share sessions: a person signed in through one is signed in on the
 * other, what they do through either is one account's, and signing out on one
 * ends the session on both. They share rate limits too: failed sign-ins
 * counted by one count on the other.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresFixture, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { openSitePerson, signInOverHttp } from './support/site-person.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';

type SiteProcess = { url: string; stop(): Promise<void> };

/** Starts `src/server/main.ts` on `databaseUrl`, port 0; resolves with its URL once it listens. */
function startSiteProcess(databaseUrl: string): Promise<SiteProcess> {
  const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, DEMO_ACCOUNTS: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (!line.includes('AgentReady Events is listening')) return;
      const url = (JSON.parse(line) as { url: string }).url.replace(/\/$/, '');
      resolve({ url, stop });
    });
    child.once('exit', () => reject(new Error(`The site ended before listening:\n${output}`)));
  });
}

const runsPostgres = (await storeDialects('the two-site session tests')).some((dialect) => dialect.name === 'postgres');

describe.runIf(runsPostgres)('two site processes on one PostgreSQL database', () => {
  let fixture: DatabaseFixture;
  let sites: SiteProcess[] = [];

  beforeAll(async () => {
    fixture = await createPostgresFixture();
    sites = await Promise.all([startSiteProcess(fixture.url), startSiteProcess(fixture.url)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await fixture?.close();
  });

  it('share sessions: signed in through one, signed in on the other; signing out on one ends it on both', async () => {
    const [first, second] = sites as [SiteProcess, SiteProcess];
    const person = await openSitePerson(first.url);
    /** The same browser (cookie and CSRF token) talking to the other site. */
    const onSecond = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const csrf = ((await (await fetch(`${first.url}/api/session`, { headers: { cookie: person.cookie } })).json()) as { csrfToken?: string }).csrfToken;
      const response = await fetch(`${second.url}${path}`, {
        method,
        headers: {
          cookie: person.cookie,
          ...(method !== 'GET' && csrf !== undefined && { 'x-csrf-token': csrf }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    expect((await onSecond('GET', '/api/session')).body).toMatchObject({ signedIn: true });
    expect((await person.call('POST', '/api/saved', { event_id: OPEN_EVENT })).status).toBe(200);
    expect((await onSecond('POST', '/api/saved', { event_id: OTHER_EVENT })).status).toBe(200);
    expect([...(await person.savedEventIds())].sort()).toEqual([OPEN_EVENT, OTHER_EVENT].sort());
    const fromSecond = (await onSecond('GET', '/api/saved')).body['events'] as Array<{ id: string }>;
    expect(fromSecond.map((event) => event.id).sort()).toEqual([OPEN_EVENT, OTHER_EVENT].sort());

    const signedOut = await person.call('POST', '/api/account/sign-out', {});
    expect(signedOut.status).toBe(200);
    const refused = await fetch(`${second.url}/api/saved`, {
      method: 'POST',
      headers: { cookie: person.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: OPEN_EVENT }),
    });
    expect(refused.status).toBe(401);
    expect((await onSecond('GET', '/api/saved')).body).toMatchObject({ events: [] });
    expect((await person.call('GET', '/api/saved')).body).toMatchObject({ events: [] });
  });

  it('share sign-in limits: failures counted by one site stop the next sign-in on the other', async () => {
    const [first, second] = sites as [SiteProcess, SiteProcess];
    const email = `limits-${Date.now()}@example.com`;
    await openSitePerson(first.url, { email });
    const signIn = (site: SiteProcess, password: string) => signInOverHttp(site.url, email, password);
    // The site's default: 5 attempts per account in 15 minutes.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(attempt % 2 === 0 ? first : second, 'a wrong password')).status).toBe(401);
    }
    const refused = await signIn(second, 'a test password');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });
});
