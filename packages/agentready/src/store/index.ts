/**
 * @module agentready/store: Kysely on SQLite or PostgreSQL, migration sets, and
 * the runtime's own migrations (server only).
 */
export { openDatabase, dialectOf, migrateToLatest, hasMigrated, describeDatabaseLocation, MissingDatabaseError } from './open-database.ts';
export type { OpenDatabaseOptions, MigrationSet, MigrationReport } from './open-database.ts';
export { runtimeMigrations, RUNTIME_MIGRATION_TABLE } from './runtime-migrations.ts';
export type { RuntimeTables, AuditRecordTable } from './runtime-migrations.ts';
export { interruptTransactions, TransactionInterruptedError } from './transaction-interruption.ts';
