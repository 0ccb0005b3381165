/**
 * @module Who the applicant is: the signed-in account behind the principal
 * and the data platform's profile of it (unit, clearance, operator role).
 * The applicant always comes from here, never from a tool's input.
 */
import { accountIdOf } from '@agentready/identity';
import type { Principal } from 'agentready';
import type { Applicant } from './application-draft.ts';
import { refusedWith, succeeded, type DomainResult } from 'agentready';
import type { RawdataContext } from './rawdata-context.ts';

/** An analyst: the applicant the rules see, the account's row id (internal), and whether they are an operator. */
export type Analyst = { applicant: Applicant; accountId: number; operator: boolean };

/**
 * The principal's analyst profile.
 *
 * @returns the analyst; UNAUTHENTICATED when the principal acts for no
 *   account; BLOCKED when the account has no data platform profile (the
 *   platform never gave it access: a person must arrange that, no agent can).
 */
export async function findAnalyst(ctx: RawdataContext, principal: Principal | null): Promise<DomainResult<Analyst>> {
  const accountId = accountIdOf(principal);
  if (accountId === null || !principal?.account) {
    return refusedWith({
      code: 'UNAUTHENTICATED',
      message: 'This needs to know which analyst is asking.',
      nextAction:
        "An agent: ask the person to create an access token on the site's /connect page and configure this client with it, then call again. A person: sign in on the site.",
    });
  }
  const row = await ctx.db.selectFrom('rawdata_analyst').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) {
    return refusedWith({
      code: 'BLOCKED',
      message: 'This account has no data platform profile, so it may not request data copies.',
      nextAction: 'Stop and hand this to a person: the data platform team must give the account a profile first.',
    });
  }
  return succeeded({
    applicant: { accountRef: principal.account.ref, unit: row.unit, clearance: row.clearance },
    accountId,
    operator: row.is_operator === 1,
  });
}
