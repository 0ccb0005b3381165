/**
 * @module What an OAuth scope lets an access token do: each scope name an app
 * chooses maps to the effect classes (agentready's `EffectClass`) a token
 * carrying it may run (docs/oauth.md, "Scopes").
 */
import type { EffectClass } from 'agentready';

/**
 * Scope name → the effect classes it allows, e.g.
 * `{ 'events:read': ['read'], 'events:prepare': ['read', 'prepare', 'write'] }`.
 * The names are what clients request and people approve (RFC 6749 §3.3:
 * space-free printable ASCII, no `"` or `\`).
 */
export type OAuthScopeEffects = Readonly<Record<string, readonly EffectClass[]>>;

/** RFC 6749 §3.3 `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The names `openid` and `offline_access` belong to the library (OpenID Connect); an app may not reuse them. */
const RESERVED_SCOPES = new Set(['openid', 'offline_access']);

/**
 * Checks an app's scope map.
 *
 * @throws TypeError when it is empty, a name is not an RFC 6749 §3.3 scope
 *   token or is reserved (`openid`, `offline_access`), or a scope allows no effect class.
 */
export function checkScopeEffects(scopes: OAuthScopeEffects): void {
  const names = Object.keys(scopes);
  if (names.length === 0) throw new TypeError('An OAuth authorization server needs at least one scope.');
  for (const name of names) {
    if (!SCOPE_TOKEN.test(name) || RESERVED_SCOPES.has(name)) throw new TypeError(`Not a usable OAuth scope name: ${JSON.stringify(name)}`);
    if ((scopes[name] ?? []).length === 0) throw new TypeError(`The OAuth scope ${name} allows no effect class.`);
  }
}

/**
 * The effect classes a token with these scopes may run: the union of each
 * known scope's classes, always with `read` (a read tool needs no principal at
 * all, so a token never allows less). Unknown names count for nothing.
 *
 * @returns the classes in the order `read`, `prepare`, `write`, `commit`.
 */
export function effectsOfScopes(scopes: OAuthScopeEffects, granted: Iterable<string>): EffectClass[] {
  const allowed = new Set<EffectClass>(['read']);
  for (const name of granted) for (const effect of Object.hasOwn(scopes, name) ? (scopes[name] ?? []) : []) allowed.add(effect);
  return (['read', 'prepare', 'write', 'commit'] as const).filter((effect) => allowed.has(effect));
}

/** The scope names of a space-separated `scope` value (RFC 6749 §3.3), each once, in order. */
export function scopeNamesOf(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(' ').filter((name) => name !== ''))];
}
