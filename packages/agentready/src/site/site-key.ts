/**
 * @module The secret a site made with `createAgentSite` signs its visitors'
 * cookies with: given (`secret`, `AGENTREADY_SECRET`), or made once at random
 * and kept in the site's database (table `agentready_site_key`), so visitors
 * keep their session across restarts and every process of the site agrees.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { MigrationSet } from '../store/open-database.ts';

/** The table of the site's own keys. */
export type SiteKeyTable = { name: string; value: string };

/** The site module's migrations (its own set, beside the runtime's). */
export const siteMigrations: MigrationSet = {
  tableName: 'agentready_site_migration',
  migrations: {
    '2026-12-02-001-site-key': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('agentready_site_key')
          .ifNotExists()
          .addColumn('name', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .execute();
      },
    } satisfies Migration,
  },
};

const VISITOR_KEY = 'visitor-cookie';

/**
 * The key visitors' cookies are signed with: the one stored, or a new
 * 32-byte random one stored now (the first process to store it wins; the
 * others read it).
 */
export async function visitorCookieKey<DB extends { agentready_site_key: SiteKeyTable }>(siteDb: Kysely<DB>): Promise<string> {
  // Kysely's database type is invariant; the site's database holds this table among others.
  const db = siteDb as unknown as Kysely<{ agentready_site_key: SiteKeyTable }>;
  const made = randomBytes(32).toString('base64url');
  await db
    .insertInto('agentready_site_key')
    .values({ name: VISITOR_KEY, value: made })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('agentready_site_key').select('value').where('name', '=', VISITOR_KEY).executeTakeFirstOrThrow();
  return stored.value;
}
