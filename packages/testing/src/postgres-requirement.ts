/**
 * @module Whether a test file runs its PostgreSQL half. Store tests run on
 * SQLite and PostgreSQL; a PostgreSQL that does not answer fails the file
 * rather than leaving half the tests out unseen, unless the person running
 * them opts out by name (`AGENTREADY_SKIP_POSTGRES=1`).
 */

/** The `pg` driver's Client, loaded when a test first talks to PostgreSQL (`pg` is an optional peer). */
async function postgresClient() {
  return (await import('pg')).default.Client;
}

/** The environment variable that lets store tests run on SQLite only when PostgreSQL is away. */
export const SKIP_POSTGRES_VARIABLE = 'AGENTREADY_SKIP_POSTGRES';

/** Options of {@link requirePostgresForTests}. */
export type PostgresRequirementOptions = {
  /** What runs on SQLite only when the opt-out is used, for the warning and the error (e.g. "the events domain tests"). */
  suite: string;
  /** Environment to read the opt-out from. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where the warning goes when the opt-out is used. Default: `console.warn`. */
  warn?: (line: string) => void;
};

/**
 * Asks PostgreSQL at `url` to answer `select 1` (3 s to connect).
 *
 * @returns true when it answers: the file runs its PostgreSQL tests; false
 *   when it does not and `AGENTREADY_SKIP_POSTGRES` is `1` or `true` (a
 *   warning names `suite`).
 * @throws Error when it does not answer and the opt-out is not set; the
 *   message names the host, port and database (never the password) and the
 *   opt-out.
 * @example
 * const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the store tests' });
 * describe.runIf(runPostgres)('on PostgreSQL', () => { ... });
 */
export async function requirePostgresForTests(url: string, options: PostgresRequirementOptions): Promise<boolean> {
  if (await postgresAnswers(url)) return true;
  const where = describePostgres(url);
  const optOut = (options.env ?? process.env)[SKIP_POSTGRES_VARIABLE];
  if (optOut === '1' || optOut === 'true') {
    (options.warn ?? console.warn)(`PostgreSQL is not reachable at ${where}; ${SKIP_POSTGRES_VARIABLE}=${optOut}: ${options.suite} run on SQLite only.`);
    return false;
  }
  throw new Error(
    `PostgreSQL is not reachable at ${where}: ${options.suite} need it. Start it, point TEST_DATABASE_URL at one, ` +
      `or set ${SKIP_POSTGRES_VARIABLE}=1 to run them on SQLite only.`,
  );
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new (await postgresClient())({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'TEST_DATABASE_URL';
  }
}
