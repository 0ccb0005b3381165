/**
 * @module Serves AgentReady Events over real HTTP on a database of either
 * dialect (events-database.ts fixtures), for tests whose MCP client or person
 * must see the same behaviour on SQLite and PostgreSQL.
 */
import { pino } from 'pino';
import { createEventsApp } from '../../src/server/create-events-app.ts';
import type { DatabaseFixture, StoreDialect, TestClock } from './events-database.ts';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';

/** A running site on a fixture's database. */
export type DialectServer = {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  fixture: DatabaseFixture;
  /** Stops the server, then closes (and removes) the database. */
  close(): Promise<void>;
};

/**
 * Opens a fresh seeded database of `dialect` and serves `createEventsApp` on
 * 127.0.0.1, port 0, with the test clock and a silent logger.
 *
 * @throws the database's or the listener's error; the database is closed then.
 */
export async function serveOnDialect(dialect: StoreDialect, clock: TestClock): Promise<DialectServer> {
  const fixture = await dialect.open();
  const app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }) });
  let listener: LoopbackListener;
  try {
    listener = await listenOnLoopback(app.fetch);
  } catch (error) {
    await fixture.close();
    throw error;
  }
  return {
    url: listener.url,
    fixture,
    async close() {
      await app.closeMcp();
      await listener.close();
      await fixture.close();
    },
  };
}
