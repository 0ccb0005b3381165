/**
 * @module How many bytes the audit table (`agentready_audit_record`) takes
 * on disk, its indexes included: on SQLite the pages SQLite's `dbstat`
 * virtual table counts for the table and its indexes
 * (https://sqlite.org/dbstat.html), on PostgreSQL `pg_total_relation_size`
 * (table, indexes and TOAST). The one place the benchmark asks; swap it for
 * the toolkit's own measure when agentready/runtime has one.
 */
import { sql, type Kysely } from 'kysely';
import { dialectOf } from 'agentready/store';

/** The audit table's name (agentready/store, runtime migrations). */
const AUDIT_TABLE = 'agentready_audit_record';

/**
 * The audit table's size in bytes, indexes included (see the module); whole
 * pages, so a few rows more may not change it.
 *
 * @throws the database's error (on SQLite, when it was built without dbstat).
 */
export async function auditTableBytes(db: Kysely<any>): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ bytes: number | string }>`select pg_total_relation_size(${AUDIT_TABLE}::regclass) as bytes`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  }
  const { rows } = await sql<{ bytes: number | null }>`
    select sum(pgsize) as bytes from dbstat
    where name in (select name from sqlite_schema where tbl_name = ${AUDIT_TABLE})`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
}

/** How many audit records the table holds. */
export async function auditRecordCount(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(AUDIT_TABLE)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
