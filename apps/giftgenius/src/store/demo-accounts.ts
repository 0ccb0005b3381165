/**
 * @module The demo person for local use (README, "GiftGenius"): an account
 * with a public password, so a chat host connecting over OAuth has someone to
 * sign in as. Left out when the site has a public URL.
 */
import type { Kysely } from 'kysely';
import { createAccount, findAccountByEmail, type IdentityTables } from '@agentready/identity';
import type { GiftGeniusDatabase } from './schema.ts';

/** The demo account; its password is public. */
export const DEMO_PERSON = { email: 'gina@example.com', password: 'giftgenius-demo-gina' } as const;

/**
 * Creates the demo account when it does not exist yet (an existing one keeps its password).
 *
 * @throws Error when the account cannot be created for another reason than existing already.
 */
export async function ensureDemoPerson(db: Kysely<GiftGeniusDatabase>, now: () => Date): Promise<void> {
  const identity = { db: db as unknown as Kysely<IdentityTables>, now };
  // An existing account is looked up, not hashed for again: argon2 costs tens of milliseconds at every start.
  if ((await findAccountByEmail(identity, DEMO_PERSON.email)) !== null) return;
  const created = await createAccount(identity, DEMO_PERSON);
  if (!created.ok && created.code !== 'CONFLICT') throw new Error(`The demo account could not be created: ${created.message}`);
}
