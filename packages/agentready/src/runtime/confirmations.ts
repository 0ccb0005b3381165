/**
 * @module Confirmation tokens (table `agentready_confirmation`,
 * docs/mutation-safety.md): the proof that a person, on the site's own page,
 * confirmed one version of one draft. A token is single-use, short-lived,
 * bound to (owner, action, draft id, version, content hash) and stored as
 * SHA-256 only; the commit that consumes it re-checks the draft in its own
 * transaction and acts on the stored content.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { FailureDetails } from '../contract/envelope.ts';
import { dialectOf } from '../store/open-database.ts';
import type { DraftTable, RuntimeTables } from '../store/runtime-migrations.ts';
import type { DraftRef, Principal } from '../contract/tool-call.ts';
import { createDraftStore, draftContentHash, draftFromRow, draftVersionConflict, isLiveDraftRow, type Draft } from './drafts.ts';

/** Default lifetime of a confirmation token: 10 minutes, in ms. */
export const CONFIRMATION_TOKEN_LIFETIME_MS = 10 * 60 * 1000;

/** How long an expired token is kept (so that its use is refused as expired, not unknown), in ms: one day. */
const EXPIRED_TOKEN_KEPT_MS = 24 * 60 * 60 * 1000;

/** A token just minted: the token itself (shown once, never stored), its public id for evidence, and when it stops working. */
export type MintedConfirmation = {
  /** `cft_` + 32 random bytes, base64url. */
  token: string;
  /** `cnf-…`, for audit evidence. */
  confirmationId: string;
  expiresAt: Date;
};

/** A token a commit consumed: its public id and the draft version it was bound to. */
export type ConsumedConfirmation = { confirmationId: string; draft: DraftRef };

/** Options of {@link createConfirmationStore}. */
export type ConfirmationStoreOptions = {
  /** The clock (default: the system's). */
  now?: () => Date;
  /** How long a token may be used after it is minted, in ms. Default {@link CONFIRMATION_TOKEN_LIFETIME_MS}. */
  lifetimeMs?: number;
};

/** What {@link ConfirmationStore.mint} answers. */
export type MintOutcome = { ok: true; minted: MintedConfirmation } | { ok: false; failure: FailureDetails };

/** What {@link ConfirmationStore.consumeWithin} answers. */
export type ConsumeOutcome = { ok: true; consumed: ConsumedConfirmation; draft: Draft } | { ok: false; failure: FailureDetails };

/** What a token is minted for: the action, the draft version (and hash) confirmed, and whether it replaces the owner's earlier unused tokens for that draft. */
export type MintInput = { action: string; draft: { id: string; version: number; hash?: string }; replacesEarlier?: boolean };

/** Confirmation tokens of every owner (see {@link createConfirmationStore}). */
export type ConfirmationStore = {
  /**
   * Mints a token for the current version of `draft` (looked up by id for
   * `principal.id`), bound to (owner = principal.id, action, draft id,
   * version, hash). Only a person mints: `principal.kind` must be `session`
   * (the site's own page, whose route already checked the session and
   * CSRF); a `token` or `oauth` principal is refused FORBIDDEN. Refusals: no
   * live draft of this owner with that id, or one of another action →
   * NOT_FOUND (field `draft_id`); `draft.version` or `draft.hash` (when given)
   * not the current one → CONFLICT (field `draft_version`) naming the current
   * version. Stores only the token's SHA-256.
   *
   * With `replacesEarlier`, the owner's unused tokens for this action and
   * draft stop working as this one is minted (their use answers "has
   * expired"): a site that mints again on the same page (a reload re-posts
   * its form) then has one working code at a time, and says so.
   */
  mint(principal: Principal, input: MintInput): Promise<MintOutcome>;
  /**
   * Mints a token as {@link mint} does, for a person who confirms in an MCP
   * Apps view (a widget the chat host renders) instead of on the site: any
   * principal acting for an account may ask (the widget reaches the server
   * through the host with the same grant as the model), so the token's
   * secrecy carries the rule. The caller must hand it only to the view: in
   * the tool result's `_meta` (which hosts give the view and keep from the
   * model: MCP Apps 2026-01-26; ChatGPT Apps "`_meta` … only to the
   * component"), never in `structuredContent` or text, and the commit tool
   * that takes it must be visible to the app only (`_meta.ui.visibility`
   * `["app"]`). A principal acting for no account is refused FORBIDDEN;
   * other refusals as {@link mint}.
   */
  mintForAppView(principal: Principal, input: MintInput): Promise<MintOutcome>;
  /**
   * Consumes the token inside the caller's transaction `trx` and re-checks the
   * draft's current state there; a refusal changes nothing. Refusals, in this
   * order: unknown token, another owner's, another action's, or bound to
   * another draft than `draftId` → CONFIRMATION_REQUIRED (field
   * `confirmation_token`, "does not match"); expired (now ≥ its expiry) →
   * CONFIRMATION_REQUIRED "has expired"; used → CONFIRMATION_REQUIRED "was
   * already used"; the draft gone or expired → CONFLICT (field `draft_id`); at
   * another version → CONFLICT (field `draft_version`) naming the current
   * version; same version, other content → CONFLICT "content changed". The
   * single-use guard is a conditional update (`used_at is null`), and on
   * PostgreSQL the token's and the draft's rows stay locked until `trx`
   * ends, so of concurrent consumers exactly one succeeds and the draft
   * cannot change before the commit (SQLite: one writer at a time). If `trx`
   * rolls back, the token is unused again.
   *
   * @returns the consumed confirmation with the bound DraftRef, and the
   *   stored draft whose content hashes to it: what the caller builds its payload from.
   */
  consumeWithin(trx: Kysely<any>, input: { ownerId: string; action: string; token: string; draftId: string }): Promise<ConsumeOutcome>;
  /**
   * The refusal {@link consumeWithin} would answer now, or null when the token
   * would be consumed: reads only, locks and changes nothing. For a commit
   * with slow work before its transaction (generating code, calling a
   * service), so that a token that cannot work is refused before that work;
   * the commit still consumes it in its transaction, which decides.
   */
  check(input: { ownerId: string; action: string; token: string; draftId: string }): Promise<FailureDetails | null>;
  /** Deletes tokens expired for more than a day, and used ones; returns how many. */
  sweep(): Promise<number>;
};

/**
 * The confirmation store on `db` (SQLite or PostgreSQL, migrated with the
 * runtime's migrations, which make `agentready_confirmation` and `agentready_draft`).
 */
export function createConfirmationStore(db: Kysely<any>, options: ConfirmationStoreOptions = {}): ConfirmationStore {
  const runtimeDb = db as Kysely<RuntimeTables>;
  const now = options.now ?? (() => new Date());
  const lifetimeMs = options.lifetimeMs ?? CONFIRMATION_TOKEN_LIFETIME_MS;
  const drafts = createDraftStore(db, { now });
  async function mintToken(principal: Principal, input: MintInput): Promise<MintOutcome> {
    const current = await drafts.find(principal.id, input.draft.id);
    const refusal = mintRefusal(current, input);
    if (refusal) return { ok: false, failure: refusal };
    const draft = current as Draft;
    const minted = { token: `cft_${randomBytes(32).toString('base64url')}`, confirmationId: `cnf-${randomBytes(16).toString('base64url')}` };
    const mintedAt = now();
    const expiresAt = new Date(mintedAt.getTime() + lifetimeMs);
    await runtimeDb.transaction().execute(async (trx) => {
      if (input.replacesEarlier) {
        // Ended now, not deleted: their use is refused as expired, not as unknown.
        await trx
          .updateTable('agentready_confirmation')
          .set({ expires_at_ms: mintedAt.getTime() })
          .where('owner_id', '=', principal.id)
          .where('action', '=', input.action)
          .where('draft_id', '=', draft.id)
          .where('used_at', 'is', null)
          .where('expires_at_ms', '>', mintedAt.getTime())
          .execute();
      }
      await trx
        .insertInto('agentready_confirmation')
        .values({
          id: minted.confirmationId,
          token_hash: tokenHash(minted.token),
          owner_id: principal.id,
          action: input.action,
          draft_id: draft.id,
          draft_version: draft.version,
          draft_hash: draft.hash,
          created_at: mintedAt.toISOString(),
          expires_at_ms: expiresAt.getTime(),
          used_at: null,
        })
        .execute();
    });
    return { ok: true, minted: { ...minted, expiresAt } };
  }
  return {
    async mint(principal, input) {
      if (principal.kind !== 'session') {
        return {
          ok: false,
          failure: { code: 'FORBIDDEN', message: 'Only the person can confirm this, on the site.', nextAction: 'Ask the person to confirm it on the site.' },
        };
      }
      return mintToken(principal, input);
    },
    async mintForAppView(principal, input) {
      if (principal.account == null) {
        return {
          ok: false,
          failure: {
            code: 'FORBIDDEN',
            message: 'Only a person signed in to the site can confirm this.',
            nextAction: "Connect the app to the person's account, then prepare again.",
          },
        };
      }
      return mintToken(principal, input);
    },
    consumeWithin: (trx, input) => consumeConfirmation(trx as Kysely<RuntimeTables>, input, now()),
    async check(input) {
      const read = await readConfirmation(runtimeDb, input, now(), false);
      return read.ok ? null : read.failure;
    },
    async sweep() {
      const nowMs = now().getTime();
      const swept = await runtimeDb
        .deleteFrom('agentready_confirmation')
        .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at_ms', '<', nowMs - EXPIRED_TOKEN_KEPT_MS)]))
        .executeTakeFirst();
      return Number(swept.numDeletedRows);
    },
  };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Why a token may not be minted for `current` (the owner's live draft with the asked id, or null), or null. */
function mintRefusal(current: Draft | null, input: Parameters<ConfirmationStore['mint']>[1]): FailureDetails | null {
  if (current === null) return { code: 'NOT_FOUND', message: 'There is no such draft to confirm.', field: 'draft_id' };
  if (current.action !== input.action) return { code: 'NOT_FOUND', message: 'There is no such draft for this action.', field: 'draft_id' };
  if (current.version !== input.draft.version) return draftVersionConflict(input.draft.version, current.version);
  if (input.draft.hash !== undefined && input.draft.hash !== current.hash) {
    return {
      code: 'CONFLICT',
      message: `The draft's content is not the one shown: it is now version ${current.version}.`,
      field: 'draft_version',
      nextAction: `Show the person version ${current.version} of the draft before confirming.`,
    };
  }
  return null;
}

function confirmationRequired(message: string): { ok: false; failure: FailureDetails } {
  return {
    ok: false,
    failure: {
      code: 'CONFIRMATION_REQUIRED',
      message,
      field: 'confirmation_token',
      nextAction: 'Ask the person to confirm again on the site, then call again with the new confirmation.',
    },
  };
}

async function consumeConfirmation(trx: Kysely<RuntimeTables>, input: Parameters<ConfirmationStore['consumeWithin']>[1], now: Date): Promise<ConsumeOutcome> {
  const read = await readConfirmation(trx, input, now, dialectOf(trx) === 'postgres');
  if (!read.ok) return read;
  const { token, bound, row } = read;
  // The single-use guard: of two consumers that both read the token unused, only one updates it.
  const used = await trx
    .updateTable('agentready_confirmation')
    .set({ used_at: now.toISOString() })
    .where('id', '=', token.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) return confirmationRequired('This confirmation was already used. Confirm again.');
  return { ok: true, consumed: { confirmationId: token.id, draft: bound }, draft: draftFromRow(row) };
}

/**
 * Reads the token and the draft it is bound to, and answers why it may not be
 * consumed, or what it is bound to. With `lock` (PostgreSQL, in the
 * consuming transaction) both rows stay locked until the transaction ends.
 */
async function readConfirmation(db: Kysely<RuntimeTables>, input: Parameters<ConfirmationStore['consumeWithin']>[1], now: Date, lock: boolean) {
  const nowMs = now.getTime();
  // Locked first (PostgreSQL): a second consumer of the token waits here, then reads it used.
  const token = await db
    .selectFrom('agentready_confirmation')
    .selectAll()
    .where('token_hash', '=', tokenHash(input.token))
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  if (!token || token.owner_id !== input.ownerId || token.action !== input.action || token.draft_id !== input.draftId) {
    return confirmationRequired('This confirmation does not match this request. Confirm again.');
  }
  if (nowMs >= Number(token.expires_at_ms)) return confirmationRequired('This confirmation has expired. Confirm again.');
  if (token.used_at !== null) return confirmationRequired('This confirmation was already used. Confirm again.');

  const bound: DraftRef = { id: token.draft_id, version: Number(token.draft_version), hash: token.draft_hash };
  // Locked too (PostgreSQL), so that no save changes the draft before the caller's commit.
  const row = await db
    .selectFrom('agentready_draft')
    .selectAll()
    .where('id', '=', bound.id)
    .where('owner_id', '=', input.ownerId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  const stale = staleDraftRefusal(row, bound, nowMs);
  if (stale) return { ok: false as const, failure: stale };
  return { ok: true as const, token, bound, row: row as Selectable<DraftTable> };
}

/** Why the draft a token was bound to (`bound`) may no longer be committed: gone, at another version, or other content; else null. */
function staleDraftRefusal(row: Selectable<DraftTable> | undefined, bound: DraftRef, nowMs: number): FailureDetails | null {
  if (!row || !isLiveDraftRow(row, nowMs)) {
    return {
      code: 'CONFLICT',
      message: 'The draft this confirmation was for is no longer there.',
      field: 'draft_id',
      nextAction: 'Prepare the draft again and ask the person to confirm it.',
    };
  }
  const version = Number(row.version);
  if (version !== bound.version) {
    return { ...draftVersionConflict(bound.version, version), nextAction: `Ask the person to confirm version ${version} of the draft on the site.` };
  }
  // The stored hash and the stored content must both be the confirmed ones: the caller acts on that content.
  if (row.content_hash !== bound.hash || draftContentHash(JSON.parse(row.content)) !== bound.hash) {
    return {
      code: 'CONFLICT',
      message: `The draft's content changed after it was confirmed at version ${version}.`,
      field: 'draft_version',
      nextAction: 'Ask the person to confirm the draft again on the site.',
    };
  }
  return null;
}
