/**
 * @module A site as separate processes on one database, for tests of what
 * happens across processes and crashes: a process started as its start
 * command starts it (its entry module under `node --import tsx`) and killed
 * with SIGKILL; a connection of the test's own holding a PostgreSQL lock in
 * an open transaction, so that a call stops at a known statement; and
 * waiting until a statement waits for that lock.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { withTestSchemaLock } from './postgres-schema-lock.ts';

/** The `pg` driver's Client, loaded when a test first talks to PostgreSQL (`pg` is an optional peer). */
async function postgresClient() {
  return (await import('pg')).default.Client;
}

/** How often {@link pollUntil} looks again, in milliseconds. */
const POLL_MS = 20;

/** A running site process. */
export type SiteProcess = {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  pid: number;
  /** Settles when the process ends: its exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
  /** Sends SIGKILL (no shutdown, no cleanup: a crash) unless it already ended; settles once it has. */
  kill(): Promise<void>;
};

/** Options of {@link startSiteProcess}. */
export type StartSiteProcessOptions = {
  /** The site's server module (its `main.ts`), absolute path. */
  entry: string;
  /** The process's whole environment besides PATH (PORT 0 and HOST 127.0.0.1 are set unless given). */
  env: Record<string, string>;
  /** The `msg` of the pino log line, carrying `url`, the site writes once it listens. */
  listeningMessage: string;
  /** When set, the start holds this PostgreSQL's test-schema lock (the migrator it runs lists every schema's tables). */
  adminUrl?: string;
};

/**
 * Starts the site on a free port of 127.0.0.1; its log (stdout, pino JSON
 * lines) is read line by line for the process's whole life, its stderr kept
 * only to explain a start that fails.
 *
 * @returns once the process logs `listeningMessage` with its `url`.
 * @throws Error when the process ends before it listens (with the end of its stderr).
 */
export async function startSiteProcess(options: StartSiteProcessOptions): Promise<SiteProcess> {
  const start = () => spawnSite(options);
  return options.adminUrl === undefined ? start() : withTestSchemaLock(options.adminUrl, start);
}

async function spawnSite(options: StartSiteProcessOptions): Promise<SiteProcess> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...options.env };
  const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', options.entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderrTail = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4_000)));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const entry = parsedLogLine(line);
      if (entry?.msg === options.listeningMessage && typeof entry.url === 'string') resolve(entry.url.replace(/\/$/, ''));
    });
    void exited.then((code) => reject(new Error(`The site exited with code ${code} before listening.${stderrTail && `\n${stderrTail}`}`)));
  });
  return {
    url,
    pid: child.pid!,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function parsedLogLine(line: string): { msg?: unknown; url?: unknown } | undefined {
  try {
    return JSON.parse(line) as { msg?: unknown; url?: unknown };
  } catch {
    return undefined;
  }
}

/** A lock held by a connection of the test's own, in an open transaction. */
export type HeldLock = {
  /** The holding connection's backend pid (what `pg_blocking_pids` names). */
  pid: number;
  /** Commits the holding transaction and closes the connection; a second call does nothing. */
  release(): Promise<void>;
};

/**
 * Runs `lock` (statements that take locks: `lock table … in share mode`,
 * `select … for update`) on a new connection to the PostgreSQL at
 * `databaseUrl`, in a transaction left open until `release()`.
 *
 * @param lock gets the connection's query function; throw to refuse (the connection is closed).
 */
export async function holdPostgresLock(
  databaseUrl: string,
  lock: (query: (text: string, values?: unknown[]) => Promise<{ rowCount: number | null }>) => Promise<void>,
): Promise<HeldLock> {
  const client = new (await postgresClient())({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await lock((text, values) => client.query(text, values));
  } catch (error) {
    await client.end();
    throw error;
  }
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  let released = false;
  return {
    pid: rows[0]!.pid,
    async release() {
      if (released) return;
      released = true;
      await client.query('commit');
      await client.end();
    },
  };
}

/**
 * Polls `check` until it answers a value (not undefined); a guard, not a
 * measurement: gives up after `giveUpMs`.
 *
 * @throws Error naming `what` when `giveUpMs` (default 60 000) passed first.
 */
export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, giveUpMs = 60_000): Promise<T> {
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > giveUpAt) throw new Error(`Gave up waiting for ${what}.`);
    await delay(POLL_MS);
  }
}

/** Waits until at least `count` statements of other connections wait for a lock the connection `lockPid` holds (PostgreSQL). */
export async function waitForLockWaiters(db: Kysely<any>, lockPid: number, count = 1): Promise<void> {
  await pollUntil(`${count} statement(s) waiting for the test's lock`, async () => {
    const { rows } = await sql<{
      waiting: number;
    }>`select count(*)::int as waiting from pg_stat_activity where ${lockPid}::int = any(pg_blocking_pids(pid))`.execute(db);
    return (rows[0]?.waiting ?? 0) >= count ? true : undefined;
  });
}
