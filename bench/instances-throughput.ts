/**
 * @module P5, two instances on one PostgreSQL against one: the Events site
 * started twice as `npm start` starts it (`apps/events/src/server/main.ts`)
 * on one fresh PostgreSQL schema, rate limits counted in Redis (REDIS_URL,
 * a limit no client reaches, so every call goes through the limiter and
 * none is refused by it). One load generator (bench/mcp-load.ts) runs 100
 * clients for 30 s against the first instance alone, then 100 clients for
 * 30 s spread over both (client `i` on instance `i mod 2`). Each client
 * acts for one of 50 people (their access tokens) and alternates
 * `search_events({keyword: "WebMCP"})` and `save_event` of the next of the
 * 36 curated events. The figure is calls answered without error per second
 * on two instances; the baseline, on one. Afterwards the saved events are
 * counted in the database: a person's event saved in more than one row is a
 * double save, and every event a call saved must have its row.
 * Goal: ≥ 1.6× the one instance's calls per second, 0 errors, 0 double saves.
 * On a machine with few cores the instances, PostgreSQL, Redis and the load
 * generator share them: the row prints the load average beside the verdict.
 * A quick run: 50 clients for 5 s each, acting for 4 people.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startSiteProcess, type SiteProcess } from '@agentready/testing';
import { createEventsIdentity } from '../apps/events/src/domain/events-identity.ts';
import { createEventsServices } from '../apps/events/src/domain/events-services.ts';
import { createPostgresFixture, POSTGRES_TEST_URL } from '../apps/events/test/support/events-database.ts';
import { REPO } from './client-build.ts';
import { figureRow, value, type FigureRow } from './figures-table.ts';
import { runMcpLoad, type LoadCall, type McpLoadFigures } from './mcp-load.ts';

const EVENTS_MAIN = join(REPO, 'apps/events/src/server/main.ts');
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** People the clients act for (a quick run: 4, as signing them up takes a while). */
const PEOPLE = 50;
const QUICK_PEOPLE = 4;
/** The goal: two instances answer at least this many times the calls of one. */
const SPEED_UP_GOAL = 1.6;

/**
 * Measures P5 (see the module).
 *
 * @throws when PostgreSQL cannot be reached, or an instance does not start.
 */
export async function measureInstancesThroughput(quick = false): Promise<FigureRow[]> {
  const clients = quick ? 50 : 100;
  const seconds = quick ? 5 : 30;
  const fixture = await createPostgresFixture();
  const sites: SiteProcess[] = [];
  try {
    const now = () => new Date();
    const identity = createEventsIdentity({ db: fixture.db, now });
    const services = createEventsServices({ db: fixture.db, now });
    const tokens: string[] = [];
    const people = quick ? QUICK_PEOPLE : PEOPLE;
    for (let person = 0; person < people; person += 1) {
      const signedUp = await identity.signUp({ email: `load-${person}@example.com`, password: 'a bench password' }, null);
      if (!signedUp.ok) throw new Error('could not sign up a bench person');
      const created = await services.createAccessToken(signedUp.value.principal, { label: 'bench' });
      if (!created.ok) throw new Error('could not create a bench token');
      tokens.push(created.value.token);
    }
    const eventIds = (await fixture.db.selectFrom('events').select('public_id').orderBy('public_id').execute()).map((row) => row.public_id);
    for (let instance = 0; instance < 2; instance += 1)
      sites.push(
        await startSiteProcess({
          entry: EVENTS_MAIN,
          env: { DATABASE_URL: fixture.url, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '100000000', REDIS_URL },
          listeningMessage: 'AgentReady Events is listening',
          adminUrl: POSTGRES_TEST_URL,
        }),
      );
    const callOf = (client: number, n: number): LoadCall => {
      const token = tokens[client % tokens.length]!;
      return n % 2 === 0
        ? { tool: 'search_events', arguments: { keyword: 'WebMCP' }, token }
        : { tool: 'save_event', arguments: { event_id: eventIds[(client + (n >> 1)) % eventIds.length]! }, token };
    };
    const urls = sites.map((site) => `${site.url}/mcp`);
    const loadBefore = loadavg()[0]!;
    const one = await runMcpLoad({ urls: urls.slice(0, 1), clients, seconds, callOf });
    const two = await runMcpLoad({ urls, clients, seconds, callOf });
    const loadAfter = loadavg()[0]!;
    const saves = await countSaves(fixture.db, [one, two], tokens);
    const ratio = two.perSecond / one.perSecond;
    // The first calls, made as the clients connected, count for errors (not for calls per second).
    const errors = one.errors + one.connecting.errors + two.errors + two.connecting.errors;
    const met = ratio >= SPEED_UP_GOAL && errors === 0 && saves.doubleSaves === 0 && saves.missingSaves === 0;
    return [
      figureRow({
        section: 'P5',
        what:
          `save_event + search_events over /mcp, ${clients} clients ${seconds} s, 2 Events instances on one PostgreSQL (Redis limits): ` +
          `${two.calls} calls, ${errors} errors, ${saves.doubleSaves} double saves; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${cpus().length} CPUs`,
        figure: value(two.perSecond, 'calls/s'),
        baseline: { what: `1 instance: ${one.calls} calls`, figure: value(one.perSecond, 'calls/s') },
        goal: { text: `≥ ${SPEED_UP_GOAL}× one instance, 0 errors, 0 double saves`, met },
        details: {
          clients,
          seconds,
          oneInstanceCalls: one.calls,
          oneInstanceErrors: one.errors,
          oneInstanceP50: Number(one.p50.toFixed(1)),
          oneInstanceP99: Number(one.p99.toFixed(1)),
          twoInstancesCalls: two.calls,
          twoInstancesErrors: two.errors,
          twoInstancesP50: Number(two.p50.toFixed(1)),
          twoInstancesP99: Number(two.p99.toFixed(1)),
          firstErrors: [...one.firstErrors, ...two.firstErrors].map(([problem, count]) => `${count}× ${problem}`).join('; '),
          savedRows: saves.rows,
          eventsSaved: saves.expected,
          doubleSaves: saves.doubleSaves,
          missingSaves: saves.missingSaves,
          loadAverageBefore: Number(loadBefore.toFixed(2)),
          loadAverageAfter: Number(loadAfter.toFixed(2)),
          cpus: cpus().length,
        },
      }),
    ];
  } finally {
    await Promise.all(sites.map((site) => site.kill()));
    await fixture.close();
  }
}

/**
 * Counts the saved events after the runs: rows, (person, event) pairs saved
 * in more than one row, and pairs a successful `save_event` asked for that
 * have no row (the database holds saves of the bench's people only).
 */
async function countSaves(
  db: Awaited<ReturnType<typeof createPostgresFixture>>['db'],
  runs: McpLoadFigures[],
  tokens: readonly string[],
): Promise<{ rows: number; expected: number; doubleSaves: number; missingSaves: number }> {
  const asked = new Set<string>();
  for (const run of runs)
    for (const call of run.succeeded) if (call.tool === 'save_event') asked.add(`${tokens.indexOf(call.token!)} ${String(call.arguments['event_id'])}`);
  const rows = await db.selectFrom('saved_events').select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
  const doubled = await db
    .selectFrom('saved_events')
    .select(['account_id', 'event_id'])
    .groupBy(['account_id', 'event_id'])
    .having(sql`count(*)`, '>', 1)
    .execute();
  const pairs = await db.selectFrom('saved_events').select(['account_id', 'event_id']).groupBy(['account_id', 'event_id']).execute();
  return { rows: Number(rows.count), expected: asked.size, doubleSaves: doubled.length, missingSaves: Math.max(0, asked.size - pairs.length) };
}
