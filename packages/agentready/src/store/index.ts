/**
 * @module agentready/store: Kysely on SQLite or PostgreSQL, migration sets, and
 * the runtime's own migrations (server only).
 */
export {
  openDatabase,
  dialectOf,
  autoNumberedKey,
  driverHandleOf,
  migrateToLatest,
  hasMigrated,
  describeDatabaseLocation,
  MissingDatabaseError,
} from './open-database.ts';
export type { OpenDatabaseOptions, MigrationSet, MigrationReport, DatabaseDriverHandle } from './open-database.ts';
export { openMigratedDatabase, databaseOpeningProblem } from './migrated-database.ts';
export type { OpenMigratedDatabaseOptions } from './migrated-database.ts';
export { runtimeMigrations, RUNTIME_MIGRATION_TABLE, RATE_LIMIT_TABLE } from './runtime-migrations.ts';
export type { RuntimeTables, AuditRecordTable, RateLimitCountTable } from './runtime-migrations.ts';
export { interruptTransactions, TransactionInterruptedError } from './transaction-interruption.ts';
export { refusableTransaction, isUniqueViolation } from './refusable-transaction.ts';
export type { RefusableTransactionOptions } from './refusable-transaction.ts';
