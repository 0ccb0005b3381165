/**
 * @module GiftGenius's tables as Kysely sees them, and the toolkit's
 * (runtime: audit evidence, drafts, confirmation tokens, idempotency records,
 * rate limits; identity: accounts, sessions, access tokens; OAuth: grants and
 * keys). Times are ISO 8601 UTC text; money is whole minor units (cents).
 */
import type { Generated, Selectable } from 'kysely';
import type { IdentityTables } from '@agentready/identity';
import type { OAuthTables } from '@agentready/identity/oauth/migrations';
import type { RuntimeTables } from 'agentready/store';

/**
 * `giftgenius_checkout`: one per confirmed checkout draft, holding the payment
 * provider's checkout session it opened. `session_id` (the provider's `cs_…`)
 * is the only id that leaves the server.
 */
export type CheckoutTable = {
  id: Generated<number>;
  account_id: number;
  /** One checkout per draft, whatever idempotency key a retry carries. */
  draft_id: string;
  draft_version: number;
  draft_hash: string;
  confirmation_id: string;
  gift_id: string;
  gift_name: string;
  quantity: number;
  currency: string;
  /** The session's total in minor units of `currency`. */
  amount_total: number;
  session_id: string;
  session_url: string;
  /** When the provider's session stops taking payment (ISO 8601). */
  expires_at: string;
  created_at: string;
};

/** The app's own tables. */
export type GiftGeniusTables = {
  giftgenius_checkout: CheckoutTable;
};

/** Everything in the GiftGenius database. */
export type GiftGeniusDatabase = GiftGeniusTables & RuntimeTables & IdentityTables & OAuthTables;

export type CheckoutRow = Selectable<CheckoutTable>;
