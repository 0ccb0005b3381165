/**
 * @module
 * Starts AgentReady Events for a test: a fresh SQLite file in a temporary
 * folder, migrated and seeded, served over real HTTP on 127.0.0.1 so a
 * browser can load the built site (apps/events/dist/web, see build-web.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { pino, type Logger } from 'pino';
import { createEventsApp, type EventsAppOptions } from '../../src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../../src/store/prepare-database.ts';
import type { EventsDatabase } from '../../src/store/schema.ts';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';

/** A running test server. */
export type EventsServer = {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The server's database, for arranging data a test needs. */
  db: Kysely<EventsDatabase>;
  /** The database's `DATABASE_URL` (a `file:` URL), for another process on the same data (the stdio MCP server). */
  databaseUrl: string;
  /** Stops the server, closes the database and deletes its folder. */
  close(): Promise<void>;
};

/** Options of {@link startEventsServer}. */
export type StartEventsServerOptions = {
  /** The clock of every rule. Default: the real clock. */
  now?: () => Date;
  /** Default: a silent logger. */
  logger?: Logger;
  /** Further `createEventsApp` options (e.g. `webRoot`), passed as they are. */
  app?: Omit<EventsAppOptions, 'db' | 'now' | 'logger'>;
};

/**
 * Prepares a new database with `prepareEventsDatabase` and serves
 * `createEventsApp` with `@hono/node-server` on 127.0.0.1, port 0 (any free one).
 *
 * @throws the database's or the listener's error; nothing is left running then.
 * @example
 * const server = await startEventsServer();
 * await page.goto(`${server.url}/events`);
 * await server.close();
 */
export async function startEventsServer(options: StartEventsServerOptions = {}): Promise<EventsServer> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? pino({ level: 'silent' });
  const folder = await mkdtemp(join(tmpdir(), 'agentready-events-'));
  const databaseUrl = pathToFileURL(join(folder, 'events.sqlite')).href;
  let db: Kysely<EventsDatabase>;
  try {
    db = await prepareEventsDatabase({ url: databaseUrl, now, logger });
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const app = createEventsApp({ ...options.app, db, now, logger });

  let listener: LoopbackListener;
  try {
    listener = await listenOnLoopback(app.fetch);
  } catch (error) {
    await db.destroy();
    await rm(folder, { recursive: true, force: true });
    throw error;
  }

  return {
    url: listener.url,
    db,
    databaseUrl,
    async close() {
      await app.closeMcp();
      await listener.close();
      await db.destroy();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
