/**
 * @module Analyst accounts: an identity account (@agentready/identity) with
 * the data platform's profile of it (unit, clearance, operator role). The
 * platform's directory decides these; here the `analyst` command and the demo
 * accounts create them.
 */
import type { Kysely } from 'kysely';
import { createAccount, findAccountByEmail, type IdentityTables } from '@agentready/identity';
import type { AnalystTable, RawdataDatabase } from './schema.ts';

/** A profile to give an account. */
export type AnalystProfile = { unit: string | null; clearance: AnalystTable['clearance']; operator: boolean };

/** The demo accounts for local use (README, "Demo accounts"): an analyst and an operator. Their passwords are public. */
export const DEMO_ANALYSTS = [
  { email: 'amy@example.com', password: 'rawdata-demo-amy', profile: { unit: 'Risk Management', clearance: 'classified', operator: false } },
  { email: 'omar@example.com', password: 'rawdata-demo-omar', profile: { unit: 'Data Platform', clearance: 'restricted', operator: true } },
] as const satisfies ReadonlyArray<{ email: string; password: string; profile: AnalystProfile }>;

/**
 * Creates the account when it does not exist yet (an existing one keeps its
 * password) and sets its profile.
 *
 * @returns `created` (a new account) or `updated` (the profile of an existing one).
 * @throws Error when the account cannot be created (an invalid e-mail or password).
 */
export async function saveAnalyst(
  db: Kysely<RawdataDatabase>,
  now: () => Date,
  analyst: { email: string; password: string; profile: AnalystProfile },
): Promise<'created' | 'updated'> {
  const identity = { db: db as unknown as Kysely<IdentityTables>, now };
  // An existing account is looked up, not hashed for again: argon2 costs tens of milliseconds at every start.
  const existing = await findAccountByEmail(identity, analyst.email);
  const created = existing === null ? await createAccount(identity, { email: analyst.email, password: analyst.password }) : undefined;
  if (created !== undefined && !created.ok && created.code !== 'CONFLICT') throw new Error(`The account could not be created: ${created.message}`);
  const account = existing ?? (created?.ok ? created.value : await findAccountByEmail(identity, analyst.email));
  if (!account) throw new Error('The account could not be found after it was created.');
  const row = { unit: analyst.profile.unit, clearance: analyst.profile.clearance, is_operator: analyst.profile.operator ? 1 : 0 };
  await db
    .insertInto('rawdata_analyst')
    .values({ account_id: account.id, ...row })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(row))
    .execute();
  return created?.ok ? 'created' : 'updated';
}

/** Creates the demo accounts that do not exist yet and sets their profiles. */
export async function ensureDemoAnalysts(db: Kysely<RawdataDatabase>, now: () => Date): Promise<void> {
  for (const analyst of DEMO_ANALYSTS) await saveAnalyst(db, now, analyst);
}
