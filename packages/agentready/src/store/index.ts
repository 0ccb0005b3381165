/**
 * @module agentready/store: Kysely on SQLite (better-sqlite3) or PostgreSQL
 * (pg), each driver loaded when a database of its kind is opened; migration
 * sets, the runtime's own tables, and transactions a refusal rolls back
 * (server only).
 */
export { openDatabase, dialectOf, autoNumberedKey, migrateToLatest, describeDatabaseLocation, MissingDatabaseError } from './open-database.ts';
export type { MigrationSet } from './open-database.ts';
export { openMigratedDatabase, databaseOpeningProblem } from './migrated-database.ts';
export { runtimeMigrations, RUNTIME_MIGRATION_TABLE } from './runtime-migrations.ts';
export type { RuntimeTables } from './runtime-migrations.ts';
export { interruptTransactions } from './transaction-interruption.ts';
export { refusableTransaction } from './refusable-transaction.ts';
