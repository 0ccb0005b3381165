/**
 * @module Drafts (table `agentready_draft`, docs/mutation-safety.md): the
 * current version of an action an agent prepared for a person, one per
 * (owner, action, subject). Each change of content adds a version; a person's
 * confirmation (runtime/confirmations.ts) and audit evidence name one version
 * by its {@link DraftRef}, and a commit acts on the stored content, never on
 * what a model sends with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Kysely, Selectable } from 'kysely';
import type { FailureDetails } from '../contract/envelope.ts';
import type { DraftRef } from '../contract/tool-call.ts';
import { dialectOf } from '../store/open-database.ts';
import type { DraftTable, RuntimeTables } from '../store/runtime-migrations.ts';

/**
 * One draft at its current version: whose it is, what a commit of it does
 * (`action`) to what (`subject`), its content, and when it was made and last
 * changed (ISO 8601 UTC).
 */
export type Draft<C = Record<string, unknown>> = DraftRef & {
  ownerId: string;
  action: string;
  subject: string;
  content: C;
  createdAt: string;
  updatedAt: string;
};

/** Default time an unused draft is kept after its latest version: 7 days, in milliseconds. */
const DEFAULT_DRAFT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Attempts at creating or revising a draft when another save removes or creates it meanwhile. */
const SAVE_ATTEMPTS = 3;

/**
 * The canonical JSON (RFC 8785, by the `canonicalize` package) of `content`:
 * keys sorted, no whitespace, numbers as ECMAScript prints them.
 *
 * @throws TypeError when `content` has no JSON form (undefined, a function); the
 *   `canonicalize` package's Error for NaN or Infinity, and a TypeError for a BigInt.
 */
export function canonicalJson(content: unknown): string {
  const json = canonicalize(content);
  if (json === undefined) throw new TypeError('The content has no JSON form.');
  return json;
}

/**
 * SHA-256 (lower-case hex, 64 characters) of the RFC 8785 canonical JSON of
 * `content`: equal for equal content whatever the order of its keys.
 *
 * @throws as {@link canonicalJson} does.
 * @example draftContentHash({ b: 1, a: 2 }) === draftContentHash({ a: 2, b: 1 })
 */
export function draftContentHash(content: unknown): string {
  return sha256Hex(canonicalJson(content));
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The top-level keys whose values differ between `before` and `after`
 * (deep equality by canonical JSON, so key order inside values does not
 * count; a key missing on one side differs from any value but `undefined`),
 * sorted by UTF-16 code units: what a refusal names as "what changed".
 */
export function changedDraftFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const same = (key: string) => canonicalize(before[key]) === canonicalize(after[key]);
  return [...keys].filter((key) => !same(key)).sort();
}

/** Options of {@link createDraftStore}. */
export type DraftStoreOptions = {
  /** The clock (default: the system's). */
  now?: () => Date;
  /** How long an unused draft is kept after its latest save, in milliseconds. Default 7 days. */
  lifetimeMs?: number;
};

/** What {@link DraftStore.save} answers. */
export type DraftSaveOutcome = { ok: true; draft: Draft; changed: boolean } | { ok: false; failure: FailureDetails; current: DraftRef; changed: string[] };

/** Drafts of every owner, in `agentready_draft` (see {@link createDraftStore}). */
export type DraftStore = {
  /**
   * Creates or revises the owner's draft for (action, subject): no live
   * draft → version 1 with a new id (`drf-` + 16 random bytes, base64url; an
   * expired one left by the sweep is replaced); the current version's content
   * hash → unchanged (same version, `changed: false`); otherwise version + 1.
   * With `expectedVersion`, a live draft at another version is refused
   * CONFLICT (field `draft_version`, the message naming the current version
   * and the changed fields), with `current` and `changed` (the top-level
   * fields where `content` differs from the current version's), and nothing
   * is written. Without a live draft, `expectedVersion` is not checked.
   * Safe under concurrency on both dialects: two saves at once end in
   * versions n+1 and n+2 (or one unchanged), never a lost version. Every
   * accepted save keeps the draft until now + lifetime.
   *
   * @throws as {@link canonicalJson} does for content without a JSON form; the driver's errors.
   */
  save(input: { ownerId: string; action: string; subject: string; content: Record<string, unknown>; expectedVersion?: number }): Promise<DraftSaveOutcome>;
  /** The owner's live (unexpired) draft by id, or null (another owner's is null too). */
  find(ownerId: string, id: string): Promise<Draft | null>;
  /** The owner's live draft for (action, subject), or null. */
  findFor(ownerId: string, action: string, subject: string): Promise<Draft | null>;
  /** Deletes the draft inside the caller's transaction (a commit used it); nothing when there is none. */
  deleteWithin(trx: Kysely<any>, id: string): Promise<void>;
  /** Deletes expired drafts; returns how many. */
  sweep(): Promise<number>;
};

/**
 * The draft store on `db` (SQLite or PostgreSQL, migrated with the runtime's
 * migrations). A draft is live while now < its `expires_at_ms`.
 *
 * @param db a database opened with `openDatabase`, whose tables include `agentready_draft`.
 */
export function createDraftStore(db: Kysely<any>, options: DraftStoreOptions = {}): DraftStore {
  const runtimeDb = db as Kysely<RuntimeTables>;
  const now = options.now ?? (() => new Date());
  const lifetimeMs = options.lifetimeMs ?? DEFAULT_DRAFT_LIFETIME_MS;
  const liveDrafts = () => runtimeDb.selectFrom('agentready_draft').selectAll().where('expires_at_ms', '>', now().getTime());
  return {
    save: (input) => saveDraft(runtimeDb, input, now(), lifetimeMs),
    async find(ownerId, id) {
      const row = await liveDrafts().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      return row ? draftFromRow(row) : null;
    },
    async findFor(ownerId, action, subject) {
      const row = await liveDrafts().where('owner_id', '=', ownerId).where('action', '=', action).where('subject', '=', subject).executeTakeFirst();
      return row ? draftFromRow(row) : null;
    },
    async deleteWithin(trx, id) {
      await (trx as Kysely<RuntimeTables>).deleteFrom('agentready_draft').where('id', '=', id).execute();
    },
    async sweep() {
      const swept = await runtimeDb.deleteFrom('agentready_draft').where('expires_at_ms', '<=', now().getTime()).executeTakeFirst();
      return Number(swept.numDeletedRows);
    },
  };
}

/**
 * A stored draft row as a {@link Draft} (its content parsed from JSON). For
 * the runtime's own modules (confirmations read drafts inside a commit's transaction).
 */
export function draftFromRow(row: Selectable<DraftTable>): Draft {
  return {
    id: row.id,
    version: Number(row.version),
    hash: row.content_hash,
    ownerId: row.owner_id,
    action: row.action,
    subject: row.subject,
    content: JSON.parse(row.content) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Whether a stored draft row is still offered at `nowMs` (epoch ms): before its `expires_at_ms`. */
export function isLiveDraftRow(row: Pick<Selectable<DraftTable>, 'expires_at_ms'>, nowMs: number): boolean {
  return nowMs < Number(row.expires_at_ms);
}

/**
 * A refusal naming the draft's current version, for a caller who acted on
 * `expected` (field `draft_version`): "The draft changed since version 2: it is
 * now version 3 (name changed)." `changed` lists the changed fields when known.
 */
export function draftVersionConflict(expected: number, current: number, changed: readonly string[] = []): FailureDetails {
  const fields = changed.length > 0 ? ` (${changed.join(', ')} changed)` : '';
  const message =
    expected < current
      ? `The draft changed since version ${expected}: it is now version ${current}${fields}.`
      : `The draft is at version ${current}, not version ${expected}${fields}.`;
  return { code: 'CONFLICT', message, field: 'draft_version', nextAction: `Read the draft at version ${current} and act on that version.` };
}

/**
 * Reads the row of (owner, action, subject), locked on PostgreSQL until the
 * transaction ends (`for update`); SQLite's transactions hold the one write lock already.
 */
async function lockDraftRowFor(trx: Kysely<RuntimeTables>, key: { ownerId: string; action: string; subject: string }) {
  return trx
    .selectFrom('agentready_draft')
    .selectAll()
    .where('owner_id', '=', key.ownerId)
    .where('action', '=', key.action)
    .where('subject', '=', key.subject)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
}

type SaveInput = Parameters<DraftStore['save']>[0];

async function saveDraft(db: Kysely<RuntimeTables>, input: SaveInput, now: Date, lifetimeMs: number): Promise<DraftSaveOutcome> {
  const content = canonicalJson(input.content);
  const hash = sha256Hex(content);
  const nowMs = now.getTime();
  const expiresAtMs = nowMs + lifetimeMs;
  return db.transaction().execute(async (trx) => {
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
      const row = await lockDraftRowFor(trx, input);
      if (row && isLiveDraftRow(row, nowMs)) return reviseDraft(trx, row, input, { content, hash, now, expiresAtMs });
      // An expired draft is gone for its owner: a new one takes its place under a new id.
      if (row) await trx.deleteFrom('agentready_draft').where('id', '=', row.id).execute();
      const stamp = now.toISOString();
      const values = {
        id: `drf-${randomBytes(16).toString('base64url')}`,
        owner_id: input.ownerId,
        action: input.action,
        subject: input.subject,
        version: 1,
        content,
        content_hash: hash,
        created_at: stamp,
        updated_at: stamp,
        expires_at_ms: expiresAtMs,
      };
      // Of two first saves at once, one inserts; the other (PostgreSQL waits for it to commit) inserts
      // nothing and revises the row the first made on its next attempt.
      const inserted = await trx
        .insertInto('agentready_draft')
        .values(values)
        .onConflict((conflict) => conflict.columns(['owner_id', 'action', 'subject']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { ok: true, draft: draftFromRow(inserted), changed: true };
    }
    throw new Error('The draft could not be saved: other saves kept replacing it.');
  });
}

async function reviseDraft(
  trx: Kysely<RuntimeTables>,
  row: Selectable<DraftTable>,
  input: SaveInput,
  next: { content: string; hash: string; now: Date; expiresAtMs: number },
): Promise<DraftSaveOutcome> {
  const current = draftFromRow(row);
  if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
    const changed = changedDraftFields(current.content, input.content);
    const failure = draftVersionConflict(input.expectedVersion, current.version, changed);
    return { ok: false, failure, current: { id: current.id, version: current.version, hash: current.hash }, changed };
  }
  if (row.content_hash === next.hash) {
    await trx.updateTable('agentready_draft').set({ expires_at_ms: next.expiresAtMs }).where('id', '=', row.id).execute();
    return { ok: true, draft: current, changed: false };
  }
  const updated = await trx
    .updateTable('agentready_draft')
    .set({
      version: current.version + 1,
      content: next.content,
      content_hash: next.hash,
      updated_at: next.now.toISOString(),
      expires_at_ms: next.expiresAtMs,
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ok: true, draft: draftFromRow(updated), changed: true };
}
