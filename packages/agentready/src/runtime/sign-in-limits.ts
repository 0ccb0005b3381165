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

/** One sign-in attempt: the account the person names (their e-mail address) and the address the request came from, when known. */
export type SignInAttempt = { account: string; callerAddress?: string };

/** The two limits of a sign-in, and the two moments a sign-in uses them. */
export type SignInLimits = {
  /** Counts attempts per account (keys: a SHA-256 of the identifier, so no e-mail address is stored). */
  readonly perAccount: RateLimiter;
  /** Counts attempts per caller address. */
  readonly perAddress: RateLimiter;
  /**
   * Counts one attempt, before the password is checked: under the account
   * the person names (trimmed and lowercased here) and the address the
   * request came from (when known).
   *
   * @returns null when the attempt may go on; otherwise the failure to answer
   *   without checking the password: RATE_LIMITED with `retryAfterSeconds`
   *   (the longer wait of the two limits), or TEMPORARY_FAILURE when the
   *   store failed.
   */
  attempt(call: SignInAttempt): Promise<FailureDetails | null>;
  /**
   * The attempt's password matched: the account's count is cleared (its
   * failed attempts are forgotten) and the address gets back the point the
   * attempt took, so only failed attempts count against an address (a chat
   * host that connects again and again signs in each time). Pass what was
   * passed to {@link SignInLimits.attempt}. Never throws: a store that fails
   * here is logged at `error` and the counts stay as they were (stricter, not looser).
   */
  succeeded(call: SignInAttempt): Promise<void>;
};

const FIFTEEN_MINUTES = 15 * 60;

/**
 * Builds the sign-in limits on `store` (the site's database or Redis). Needs
 * no account table: keys are hashed identifiers and addresses. Only failed
 * attempts stay counted: a success clears its account's count and gives its
 * address's point back ({@link SignInLimits.succeeded}).
 *
 * @throws Error for limits that are not positive whole numbers (see createRateLimiter).
 * @example
 * const limits = createSignInLimits({ store: databaseRateLimitStore(db), logger });
 * const refusal = await limits.attempt({ account: email, callerAddress });
 * if (refusal) return refusal;
 * if (passwordMatches) await limits.succeeded({ account: email, callerAddress });
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
      const worst =
        refusals.find((refusal) => refusal.reason === 'store-failed') ?? refusals.reduce((a, b) => (b.retryAfterSeconds > a.retryAfterSeconds ? b : a));
      return rateLimitFailure(worst, 'Too many sign-in attempts');
    },
    async succeeded({ account, callerAddress }) {
      try {
        await perAccount.reset(accountKey(account));
        if (callerAddress) await perAddress.reward(callerAddress);
      } catch (error) {
        logger.error({ err: error }, 'a successful sign-in could not clear its counts; they stay until their window ends');
      }
    },
  };
}

/** The key of an account's identifier: a SHA-256 of it trimmed and lowercased, so the store holds no e-mail address. */
function accountKey(account: string): string {
  return `acct-${createHash('sha256').update(account.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
}
