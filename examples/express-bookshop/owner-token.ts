/**
 * @module Who an MCP client acts for: the shop's owner, when it presents the
 * token set in `BOOKSHOP_AGENT_TOKEN` (`Authorization: Bearer <token>`).
 * Replace it with your own sign-in; `@agentready/identity` gives a site
 * accounts, personal access tokens and OAuth for MCP clients.
 */
import { timingSafeEqual } from 'node:crypto';
import type { VerifiedAccessToken } from 'agentready/runtime';

/** Checks a presented token against `expected` (in constant time); without `expected`, every token is refused. */
export function ownerToken(expected: string | undefined) {
  return async (token: string): Promise<VerifiedAccessToken | null> => {
    if (expected === undefined || expected.length < 16) return null;
    const given = Buffer.from(token);
    const wanted = Buffer.from(expected);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    return { principal: { id: 'owner', kind: 'token', ref: 'tok-owner', clientName: 'Owner token' }, expiresAt: new Date(Date.now() + 60 * 60 * 1000) };
  };
}
