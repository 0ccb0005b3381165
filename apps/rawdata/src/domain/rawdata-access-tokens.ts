/**
 * @module The analyst's personal access tokens for MCP clients (toolkit
 * @agentready/identity): `ard_pat_…`, 90 days, at most 10 live per account,
 * scope `read`, `prepare` or `submit` (the last lets an agent submit a
 * draft version only with the confirmation token the person minted on the
 * review page). Created, listed and revoked only in the person's browser.
 */
import type { Kysely } from 'kysely';
import {
  accessTokenPattern,
  createAccessToken,
  listAccessTokens,
  revokeAccessToken,
  verifyAccessToken,
  withoutAccessTokens,
  type AccessTokenRecord,
  type AccessTokenRules,
  type IdentityResult,
  type IdentityTables,
} from '@agentready/identity';
import type { VerifiedAccessToken } from 'agentready/runtime';
import type { Principal } from 'agentready';
import { z } from 'zod';
import type { RawdataContext } from './rawdata-context.ts';

/** What every Rawdata access token starts with. */
export const RAWDATA_TOKEN_PREFIX = 'ard_pat_';

/** An access token wherever it stands in text (for redaction in audit evidence and logs). */
export const RAWDATA_TOKEN_PATTERN = accessTokenPattern({ prefix: RAWDATA_TOKEN_PREFIX });

/** The site's token rules. */
export const RAWDATA_TOKEN_RULES: AccessTokenRules = {
  prefix: RAWDATA_TOKEN_PREFIX,
  lifetimeDays: 90,
  maxPerAccount: 10,
  scopes: ['read', 'prepare', 'submit'],
};

/** A token's label: what the person calls the client, 1 to 60 characters on one line. */
export const tokenLabelSchema = z
  .string()
  .trim()
  .min(1, 'Give the token a name, such as the client it is for.')
  .max(60, 'The name may be at most 60 characters.')
  .regex(/^[^\p{Cc}]*$/u, 'The name must be one line of text.');

function identityOf(ctx: RawdataContext) {
  return { db: ctx.db as unknown as Kysely<IdentityTables>, now: ctx.now };
}

/**
 * Creates a token for the signed-in person (their browser session only).
 *
 * @returns the token (shown once) and its record; INVALID_INPUT (field `label` | `scope`), FORBIDDEN, CONFLICT (too many).
 */
export async function createRawdataToken(
  ctx: RawdataContext,
  principal: Principal,
  request: { label: string; scope: string },
): Promise<IdentityResult<{ token: string; accessToken: AccessTokenRecord }>> {
  const label = tokenLabelSchema.safeParse(request.label);
  if (!label.success) return { ok: false, code: 'INVALID_INPUT', message: label.error.issues[0]?.message ?? 'The name is not valid.', field: 'label' };
  return createAccessToken(identityOf(ctx), RAWDATA_TOKEN_RULES, principal, { label: label.data, scope: request.scope });
}

/** The person's live tokens, newest first. */
export async function listRawdataTokens(ctx: RawdataContext, principal: Principal): Promise<AccessTokenRecord[]> {
  return listAccessTokens(identityOf(ctx), principal);
}

/** Revokes one of the person's tokens: NOT_FOUND (field `id`) when it is not theirs or not live. */
export async function revokeRawdataToken(ctx: RawdataContext, principal: Principal, publicId: string) {
  return revokeAccessToken(identityOf(ctx), principal, publicId);
}

/** The principal a bearer token stands for (its label as the client's name), or null. */
export async function verifyRawdataToken(ctx: RawdataContext, presented: string | undefined): Promise<VerifiedAccessToken | null> {
  return verifyAccessToken(identityOf(ctx), RAWDATA_TOKEN_RULES, presented);
}

/** An error as it may go to a log, every access token in it shown as `ard_pat_[redacted]` (@agentready/identity). */
export function withoutRawdataTokens(error: unknown): unknown {
  return error instanceof Error ? withoutAccessTokens(error, RAWDATA_TOKEN_RULES) : error;
}
