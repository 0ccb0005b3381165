/**
 * @module Sign-in limits, ready made for an e-mail and password sign-in
 * (docs/architecture.md, "Rate limits"): attempts counted per account and per
 * caller address, so that a password cannot be guessed by many tries at one
 * account, nor at many accounts from one address. They fail closed: when the
 * count cannot be kept, the attempt is refused TEMPORARY_FAILURE.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { FailureDetails } from '../contract/envelope.ts';
import { createRateLimiter, rateLimitFailure, type RateLimitDecision, type RateLimiter, type RateLimitStore } from './rate-limits.ts';

/** A limit's size: attempts per window of `durationSeconds`, then a block of `blockSeconds`. */
export type SignInLimit = { points: number; durationSeconds: number; blockSeconds?: number };

/** Options of {@link createSignInLimits}. */
export type SignInLimitsOptions = {
  store: RateLimitStore;
  logger: Logger;
  /** Attempts per account. Default: 5 per 15 minutes, then blocked 15 minutes. */
  perAccount?: SignInLimit;
  /** Attempts per caller address. Default: 20 per 15 minutes, then blocked 15 minutes. */
  perAddress?: SignInLimit;
};

/** The two limits of a sign-in, and the three moments a sign-in uses them. */
export type SignInLimits = {
  /** Counts attempts per account (keys: a SHA-256 of the identifier, so no e-mail address is stored). */
  readonly perAccount: RateLimiter;
  /** Counts attempts per caller address. */
  readonly perAddress: RateLimiter;
  /**
   * Counts one attempt, before the password is checked: under the account
   * the person names (their e-mail address, trimmed and lowercased here) and
   * the address the request came from (when known).
   *
   * @returns null when the attempt may go on; otherwise the failure to answer
   *   without checking the password: RATE_LIMITED with `retryAfterSeconds`
   *   (the longer wait of the two limits), or TEMPORARY_FAILURE when the
   *   store failed.
   */
  attempt(call: { account: string; callerAddress?: string }): Promise<FailureDetails | null>;
  /** A sign-in succeeded: that account's count is cleared (its address's count stays). */
  succeeded(account: string): Promise<void>;
};

const FIFTEEN_MINUTES = 15 * 60;

/**
 * Builds the sign-in limits on `store` (the site's database or Redis). Needs
 * no account table: keys are hashed identifiers and addresses.
 *
 * @throws Error for limits that are not positive whole numbers (see createRateLimiter).
 * @example
 * const limits = createSignInLimits({ store: databaseRateLimitStore(db), logger });
 * const refusal = await limits.attempt({ account: email, callerAddress });
 * if (refusal) return refusal;
 * if (passwordMatches) await limits.succeeded(email);
 */
export function createSignInLimits(options: SignInLimitsOptions): SignInLimits {
  const { store, logger } = options;
  const perAccount = createRateLimiter({
    store,
    logger,
    name: 'sign-in-account',
    whenStoreFails: 'refuse',
    ...(options.perAccount ?? { points: 5, durationSeconds: FIFTEEN_MINUTES, blockSeconds: FIFTEEN_MINUTES }),
  });
  const perAddress = createRateLimiter({
    store,
    logger,
    name: 'sign-in-address',
    whenStoreFails: 'refuse',
    ...(options.perAddress ?? { points: 20, durationSeconds: FIFTEEN_MINUTES, blockSeconds: FIFTEEN_MINUTES }),
  });
  return {
    perAccount,
    perAddress,
    async attempt({ account, callerAddress }) {
      const decisions = [await perAccount.consume(accountKey(account))];
      if (callerAddress) decisions.push(await perAddress.consume(callerAddress));
      const refusals = decisions.filter((decision): decision is Extract<RateLimitDecision, { allowed: false }> => !decision.allowed);
      if (refusals.length === 0) return null;
      // A store failure says so; otherwise the caller waits for the later of the two windows.
      const worst = refusals.find((refusal) => refusal.reason === 'store-failed') ?? refusals.reduce((a, b) => (b.retryAfterSeconds > a.retryAfterSeconds ? b : a));
      return rateLimitFailure(worst, 'Too many sign-in attempts');
    },
    async succeeded(account) {
      await perAccount.reset(accountKey(account));
    },
  };
}

/** The key of an account's identifier: a SHA-256 of it trimmed and lowercased, so the store holds no e-mail address. */
function accountKey(account: string): string {
  return `acct-${createHash('sha256').update(account.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
}
