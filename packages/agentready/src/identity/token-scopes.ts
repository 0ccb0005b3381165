/**
 * @module What a credential an agent holds may do (docs/identity.md, "Scopes"):
 * a scope names the effect classes of the tools it may run. A `commit` is never
 * in a scope: only the person, in the site's own pages, confirms one.
 */
import type { EffectClass } from '../contract/effects.ts';

/** The scopes a person picks from when they create a token or approve a client. */
export const TOKEN_SCOPES = {
  read: { effects: ['read'], label: 'Read only' },
  prepare: { effects: ['read', 'prepare', 'write'], label: 'Read, prepare and save' },
} as const satisfies Record<string, { effects: readonly EffectClass[]; label: string }>;

/** One of {@link TOKEN_SCOPES}' names. */
export type TokenScope = keyof typeof TOKEN_SCOPES;

/** The scope names, for schemas. */
export const TOKEN_SCOPE_NAMES = Object.keys(TOKEN_SCOPES) as [TokenScope, ...TokenScope[]];

/** Whether `value` names a scope. */
export function isTokenScope(value: string): value is TokenScope {
  return Object.hasOwn(TOKEN_SCOPES, value);
}

/** The effect classes a scope covers. */
export function effectsOfScope(scope: TokenScope): readonly EffectClass[] {
  return TOKEN_SCOPES[scope].effects;
}
