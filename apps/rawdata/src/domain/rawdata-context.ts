/**
 * @module What the Rawdata services work with: the database, the clock, the
 * source metadata and rule set in force, the toolkit's draft and
 * confirmation stores, and the code generator applications are submitted with.
 */
import type { Kysely } from 'kysely';
import { createConfirmationStore, createDraftStore, type ConfirmationStore, type DraftStore } from 'agentready/runtime';
import type { RawdataDatabase } from '../store/schema.ts';
import { inProcessCodeGenerator, type CodeGenerator } from './code-generation.ts';
import { seededSourceMetadata } from './source-catalog.ts';
import type { SourceMetadata } from './source-metadata.ts';

/** The toolkit draft action of a data-copy application draft (capability `data-copy.create`). */
export const DATA_COPY_ACTION = 'data-copy.create';

/** How long an unused application draft is kept after its latest version, in days. */
export const DRAFT_LIFETIME_DAYS = 14;

/** The services' dependencies. */
export type RawdataContext = {
  db: Kysely<RawdataDatabase>;
  now: () => Date;
  metadata: SourceMetadata;
  drafts: DraftStore;
  confirmations: ConfirmationStore;
  codeGenerator: CodeGenerator;
};

/** Options of {@link createRawdataContext}. */
export type RawdataContextOptions = {
  db: Kysely<RawdataDatabase>;
  now: () => Date;
  /** The source-table metadata in force. Default: the seeded catalog. */
  metadata?: SourceMetadata;
  /** Makes each item's code at submission. Default: the in-process generator. */
  codeGenerator?: CodeGenerator;
  /** How long a minted confirmation token works, in milliseconds. Default: the toolkit's 10 minutes. */
  confirmationLifetimeMs?: number;
};

/** Builds the context: drafts live {@link DRAFT_LIFETIME_DAYS} days after their latest version. */
export function createRawdataContext(options: RawdataContextOptions): RawdataContext {
  const { db, now } = options;
  return {
    db,
    now,
    metadata: options.metadata ?? seededSourceMetadata,
    drafts: createDraftStore(db, { now, lifetimeMs: DRAFT_LIFETIME_DAYS * 24 * 3600_000 }),
    confirmations: createConfirmationStore(db, { now, ...(options.confirmationLifetimeMs !== undefined && { lifetimeMs: options.confirmationLifetimeMs }) }),
    codeGenerator: options.codeGenerator ?? inProcessCodeGenerator,
  };
}
