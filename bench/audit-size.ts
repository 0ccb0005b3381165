/**
 * @module How many records the audit table (`agentready_audit_record`) holds,
 * for P1's bytes per call; its size in bytes is the toolkit's
 * `auditTableBytes` (agentready/runtime).
 */
import { sql, type Kysely } from 'kysely';

/** The audit table's name (agentready/store, runtime migrations). */
const AUDIT_TABLE = 'agentready_audit_record';

/** How many audit records the table holds. */
export async function auditRecordCount(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(AUDIT_TABLE)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
