/**
 * @module Accounts (docs/identity.md, "Accounts"): sign-up and sign-in with
 * an e-mail address and a password, and changing the password. E-mail
 * addresses are kept trimmed and lower-cased, and never leave the server in
 * a refusal.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { identityRefusal, type IdentityResult } from './identity-result.ts';
import type { IdentityTables } from './identity-migrations.ts';
import { hashPassword, passwordMatches, passwordProblem, spendPasswordCheckTime } from './passwords.ts';
import { newPublicRef } from './secret-values.ts';

/** What an identity function runs against: the database and the clock. */
export type IdentityContext = { db: Kysely<IdentityTables>; now: () => Date };

/** An account as the server works with it: `id` internal, `ref` opaque (`acc-…`). */
export type Account = { id: number; ref: string; email: string };

const EMAIL_MAX_LENGTH = 254;
const emailSchema = z.email().max(EMAIL_MAX_LENGTH);

/** The form an e-mail address is kept and looked up in: trimmed, lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates an account.
 *
 * @returns the account; or INVALID_INPUT with `field` `email` (not an address)
 *   or `password` ({@link passwordProblem}); or CONFLICT (`field: "email"`)
 *   when the address already has an account.
 */
export async function createAccount(ctx: IdentityContext, request: { email: string; password: string }): Promise<IdentityResult<Account>> {
  const email = normalizeEmail(request.email);
  if (!emailSchema.safeParse(email).success) {
    return identityRefusal('INVALID_INPUT', 'Enter an e-mail address, such as name@example.com.', { field: 'email' });
  }
  const problem = passwordProblem(request.password);
  if (problem !== null) return identityRefusal('INVALID_INPUT', problem, { field: 'password' });
  const passwordHash = await hashPassword(request.password);
  const now = ctx.now().toISOString();
  const ref = newPublicRef('acc');
  const inserted = await ctx.db
    .insertInto('agentready_account')
    .values({ ref, email, password_hash: passwordHash, created_at: now, password_changed_at: now })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    return identityRefusal('CONFLICT', 'An account with this e-mail address already exists.', {
      field: 'email',
      nextAction: 'Sign in instead, or use another address.',
    });
  }
  return { ok: true, value: { id: inserted.id, ref, email } };
}

/**
 * Checks an e-mail address and password. An unknown address costs as much
 * time as a wrong password, and both answer the same refusal.
 *
 * @returns the account; or UNAUTHENTICATED ("The e-mail address or password is not right.").
 */
export async function checkCredentials(ctx: IdentityContext, request: { email: string; password: string }): Promise<IdentityResult<Account>> {
  const email = normalizeEmail(request.email);
  const row = await ctx.db.selectFrom('agentready_account').select(['id', 'ref', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();
  if (!row) {
    await spendPasswordCheckTime(request.password);
    return wrongCredentials();
  }
  if (!(await passwordMatches(row.password_hash, request.password))) return wrongCredentials();
  return { ok: true, value: { id: row.id, ref: row.ref, email: row.email } };
}

/**
 * Changes an account's password after checking the current one.
 *
 * @returns nothing; or UNAUTHENTICATED (`field: "currentPassword"`) when the
 *   current password is wrong, INVALID_INPUT (`field: "newPassword"`).
 */
export async function changePassword(
  ctx: IdentityContext,
  accountId: number,
  request: { currentPassword: string; newPassword: string },
): Promise<IdentityResult<null>> {
  const row = await ctx.db.selectFrom('agentready_account').select('password_hash').where('id', '=', accountId).executeTakeFirst();
  if (!row || !(await passwordMatches(row.password_hash, request.currentPassword))) {
    return identityRefusal('UNAUTHENTICATED', 'The current password is not right.', { field: 'currentPassword' });
  }
  const problem = passwordProblem(request.newPassword);
  if (problem !== null) return identityRefusal('INVALID_INPUT', problem, { field: 'newPassword' });
  await ctx.db
    .updateTable('agentready_account')
    .set({ password_hash: await hashPassword(request.newPassword), password_changed_at: ctx.now().toISOString() })
    .where('id', '=', accountId)
    .execute();
  return { ok: true, value: null };
}

/** The account with this internal key, or null. */
export async function findAccount(ctx: IdentityContext, accountId: number): Promise<Account | null> {
  const row = await ctx.db.selectFrom('agentready_account').select(['id', 'ref', 'email']).where('id', '=', accountId).executeTakeFirst();
  return row ?? null;
}

/** The account of an e-mail address (normalized first), or null: for an operator's command, never an answer to a caller. */
export async function findAccountByEmail(ctx: IdentityContext, email: string): Promise<Account | null> {
  const row = await ctx.db.selectFrom('agentready_account').select(['id', 'ref', 'email']).where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return row ?? null;
}

function wrongCredentials() {
  return identityRefusal('UNAUTHENTICATED', 'The e-mail address or password is not right.', {
    nextAction: 'Check both and try again, or create an account.',
  });
}
