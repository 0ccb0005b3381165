/**
 * @module Serves AgentReady Events over real HTTP on a database of either
 * dialect (events-database.ts fixtures), for tests whose MCP client or person
 * must see the same behaviour on SQLite and PostgreSQL.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import { createEventsApp } from '../../src/server/create-events-app.ts';
import type { DatabaseFixture, StoreDialect, TestClock } from './events-database.ts';

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
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
      listening.once('error', reject);
    });
  } catch (error) {
    await fixture.close();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fixture,
    async close() {
      await app.closeMcp();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await fixture.close();
    },
  };
}
