/**
 * @module Two demo accounts for trying the site locally (README, "Demo
 * accounts"). Their passwords are public, so the site creates them only when
 * it runs for local use (see `main.ts`).
 */
import type { Kysely } from 'kysely';
import { createAccount, findAccountByEmail, type IdentityTables } from '@agentready/identity';
import type { EventsDatabase } from './schema.ts';

/** The demo accounts' e-mail addresses and passwords, as the README lists them. */
export const DEMO_ACCOUNTS = [
  { email: 'mei@example.com', password: 'events-demo-mei' },
  { email: 'ken@example.com', password: 'events-demo-ken' },
] as const;

/**
 * Creates the demo accounts that do not exist yet (an existing one keeps its
 * password, even one its owner changed).
 *
 * @returns the e-mail addresses of the accounts created now.
 */
export async function ensureDemoAccounts(db: Kysely<EventsDatabase>, now: () => Date): Promise<string[]> {
  const identity = { db: db as unknown as Kysely<IdentityTables>, now };
  const created: string[] = [];
  for (const account of DEMO_ACCOUNTS) {
    // An existing account is looked up, not hashed for again: argon2 costs tens of milliseconds at every start.
    if ((await findAccountByEmail(identity, account.email)) !== null) continue;
    const result = await createAccount(identity, account);
    if (result.ok) created.push(account.email);
    else if (result.code !== 'CONFLICT') throw new Error(`The demo account ${account.email} could not be created: ${result.message}`);
  }
  return created;
}
