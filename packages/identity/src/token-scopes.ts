/**
 * @module What a credential an agent holds may do (docs/identity.md, "Scopes"):
 * a scope names the effect classes of the tools it may run. Each application
 * offers some of these scopes (`AccessTokenRules.scopes`; by default
 * {@link DEFAULT_TOKEN_SCOPES}, which hold no `commit`).
 *
 * Why `submit` may hold `commit` safely: every commit tool takes a
 * confirmation token (contract-rules.ts, `COMMIT_INPUT_FIELDS`), and only the
 * person's browser session can mint one (confirmations.ts: `mint` refuses a
 * `token` or `oauth` principal FORBIDDEN), for one version of one draft they
 * reviewed on the site's own page; or, in a chat app, a token minted for the
 * app's view (`mintForAppView`) that only the view receives and only its
 * Confirm button sends back. An agent holding a `submit` token can only hand
 * that confirmation in; what is committed is still the person's decision.
 */
import type { EffectClass } from 'agentready';

/** The scopes a person picks from when they create a token or approve a client, with their labels. */
export const TOKEN_SCOPES = {
  read: { effects: ['read'], label: 'Read only' },
  prepare: { effects: ['read', 'prepare', 'write'], label: 'Read, prepare and save' },
  /** Runs commit tools too; each still needs the confirmation token the person mints on the site (module doc). */
  submit: { effects: ['read', 'prepare', 'write', 'commit'], label: 'Read, prepare, and submit what the person confirmed' },
} as const satisfies Record<string, { effects: readonly EffectClass[]; label: string }>;

/** One of {@link TOKEN_SCOPES}' names. */
export type TokenScope = keyof typeof TOKEN_SCOPES;

/** The scope names, for schemas. */
export const TOKEN_SCOPE_NAMES = Object.keys(TOKEN_SCOPES) as [TokenScope, ...TokenScope[]];

/** The scopes an application offers when its token rules name none: `read` and `prepare` (no commit). */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = Object.freeze(['read', 'prepare'] as const);

/** Whether `value` names a scope of {@link TOKEN_SCOPES} (whether or not an app offers it). */
export function isTokenScope(value: string): value is TokenScope {
  return Object.hasOwn(TOKEN_SCOPES, value);
}

/** The effect classes a scope covers. */
export function effectsOfScope(scope: TokenScope): readonly EffectClass[] {
  return TOKEN_SCOPES[scope].effects;
}
