/**
 * @module The authorization server's keys, generated once and kept in the
 * database so that restarts and several instances agree: a JWK Set (the
 * library signs with it; access tokens here are opaque, so it serves ID tokens
 * and signed responses only) and the keys that sign its cookies.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JWK } from 'oidc-provider';
import type { OAuthTables } from './oauth-migrations.ts';

/** What the provider is configured with. */
export type ProviderKeys = { jwks: { keys: JWK[] }; cookieKeys: string[] };

/**
 * Reads the keys, generating and storing them on first use only (a start
 * on a database that has them generates none). Two instances
 * starting at once both try to insert; the first row wins (insert … on
 * conflict do nothing) and both read it back, so they end with the same keys.
 *
 * @throws Error when the database cannot be reached or the stored value is not JSON.
 */
export async function loadProviderKeys(db: Kysely<OAuthTables>, now: () => Date): Promise<ProviderKeys> {
  const jwks = await keptValue(db, 'jwks', now, () => ({ keys: [newRsaSigningKey()] }));
  const cookieKeys = await keptValue(db, 'cookies', now, () => [randomBytes(32).toString('base64url')]);
  return { jwks: jwks as { keys: JWK[] }, cookieKeys: cookieKeys as string[] };
}

async function keptValue(db: Kysely<OAuthTables>, purpose: string, now: () => Date, generate: () => unknown): Promise<unknown> {
  const readKept = () => db.selectFrom('agentready_oauth_key').select('value').where('purpose', '=', purpose).executeTakeFirst();
  // A key is generated (an RSA key pair takes tens of milliseconds) only when none is kept yet: not at every start.
  let kept = await readKept();
  if (kept === undefined) {
    await keepNew(db, purpose, now, generate);
    kept = await readKept();
  }
  if (kept === undefined) throw new Error(`The OAuth key "${purpose}" could not be stored.`);
  return JSON.parse(kept.value) as unknown;
}

async function keepNew(db: Kysely<OAuthTables>, purpose: string, now: () => Date, generate: () => unknown): Promise<void> {
  await db
    .insertInto('agentready_oauth_key')
    .values({ purpose, value: JSON.stringify(generate()), created_at: now().toISOString() })
    .onConflict((conflict) => conflict.column('purpose').doNothing())
    .execute();
}

/** An RS256 key (the algorithm every OpenID Provider must offer), private part included, with a random key id. */
function newRsaSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}
