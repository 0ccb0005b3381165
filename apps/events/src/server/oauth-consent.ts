/**
 * @module OAuth sign-in for MCP clients on the Events site (docs/identity.md,
 * "OAuth for MCP clients"): the authorization server (agentready/oauth) with
 * this site's scopes and accounts, the consent page's data, the person's
 * decision, and the grants /connect lists and revokes.
 */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { Kysely } from 'kysely';
import { findAccount, TOKEN_SCOPES, type IdentityTables } from 'agentready/identity';
import { createOAuthAuthorizationServer, OAuthInteractionError, type OAuthAuthorizationServer, type OAuthTables } from 'agentready/oauth';
import type { Principal } from 'agentready/runtime';
import type { Logger } from 'pino';
import type { EventsDatabase } from '../store/schema.ts';
import type { ConsentPageData } from '../web/page-data.ts';
import { clientNameForDisplay } from '../domain/one-line-text.ts';
import { CONSENT_NEEDS_FULL_LOAD } from './page-data-loader.ts';

/** The scopes an MCP client may ask for, what each allows, and how the consent page words it. */
export const EVENTS_OAUTH_SCOPES = {
  // The same effects as the personal access tokens' scopes (agentready/identity), so both kinds of credential allow alike.
  'events:read': { effects: TOKEN_SCOPES.read.effects, label: 'Find and read events' },
  'events:prepare': { effects: TOKEN_SCOPES.prepare.effects, label: 'Save events for you, and prepare registrations and cancellations for you to confirm' },
} as const;

/**
 * The site's authorization server: its issuer is `siteUrl`'s origin and its
 * one resource `siteUrl` + `/mcp`; a grant acts for the account it was approved by.
 *
 * @throws what `createOAuthAuthorizationServer` throws (a database that cannot be read, a site URL that is not http(s)).
 */
export async function createEventsOAuth(db: Kysely<EventsDatabase>, siteUrl: string, logger: Logger, now: () => Date = () => new Date()): Promise<OAuthAuthorizationServer> {
  const identity = { db: db as unknown as Kysely<IdentityTables>, now };
  return createOAuthAuthorizationServer({
    db: db as unknown as Kysely<OAuthTables>,
    siteUrl,
    scopes: Object.fromEntries(Object.entries(EVENTS_OAUTH_SCOPES).map(([name, scope]) => [name, scope.effects])),
    resourceName: 'AgentReady Events',
    now,
    async findAccount(accountId) {
      const account = Number.isSafeInteger(Number(accountId)) ? await findAccount(identity, Number(accountId)) : null;
      return account ? { id: String(account.id), ref: account.ref } : null;
    },
    onError: (error) => logger.warn({ err: error }, 'OAuth request refused or failed'),
  });
}

/**
 * The consent page's data for the interaction in this request (its cookie
 * names it), as `principal` sees it. An interaction that cannot be read (it
 * expired, or the page was opened in another browser) says so.
 */
export async function consentPageData(c: Context, oauth: OAuthAuthorizationServer, principal: Principal | null, uid: string): Promise<ConsentPageData> {
  const signedIn = principal?.account != null;
  const bindings = c.env as HttpBindings | undefined;
  if (!bindings?.incoming) return { route: 'consent', uid, signedIn, request: null, error: CONSENT_NEEDS_FULL_LOAD };
  try {
    const interaction = await oauth.readInteraction(bindings.incoming, bindings.outgoing);
    if (interaction.uid !== uid) return { route: 'consent', uid, signedIn, request: null, error: CONSENT_NEEDS_FULL_LOAD };
    const shownName = clientNameForDisplay(interaction.clientName);
    const scopes = interaction.requestedScopes.filter((name) => Object.hasOwn(EVENTS_OAUTH_SCOPES, name));
    return {
      route: 'consent',
      uid,
      signedIn,
      request: {
        // The client chose its own name: shown without what could disguise it (direction overrides, unseen characters), and cut short.
        clientName: shownName.text,
        clientNameAltered: shownName.altered,
        clientUri: interaction.clientUri,
        returnsTo: new URL(interaction.redirectUri).origin,
        scopes: (scopes.length > 0 ? scopes : ['events:read']).map((name) => ({ name, label: EVENTS_OAUTH_SCOPES[name as keyof typeof EVENTS_OAUTH_SCOPES].label })),
        resource: interaction.resource,
      },
      error: null,
    };
  } catch (error) {
    if (error instanceof OAuthInteractionError) return { route: 'consent', uid, signedIn, request: null, error: error.message };
    throw error;
  }
}

/**
 * The person's answer on the consent page (`POST /oauth/interaction/:uid/decision`,
 * a plain form: `decision` allow | deny, `scope` repeated). Refused 403 unless
 * the request's `Origin` is the site's own (OWASP CSRF Prevention Cheat Sheet,
 * "Verifying Origin With Standard Headers": another port of this host is
 * another origin); a person not signed in is sent to sign in first.
 *
 * @returns a 303 to where the authorization goes on (and then back to the app).
 */
export async function answerConsent(
  c: Context,
  oauth: OAuthAuthorizationServer,
  principal: Principal | null,
  siteOrigin: string,
): Promise<Response> {
  const uid = c.req.param('uid') ?? '';
  if (c.req.header('Origin') !== siteOrigin) return c.text('This form can only be sent from this site.', 403);
  const bindings = c.env as HttpBindings | undefined;
  if (!bindings?.incoming) return c.text('OAuth needs the site to run on its HTTP server.', 503);
  if (!principal?.account) return c.redirect(`/signin?next=${encodeURIComponent(`/oauth/interaction/${uid}`)}`, 303);
  const form = await c.req.formData();
  try {
    const to =
      form.get('decision') === 'allow'
        ? await oauth.approveInteraction(bindings.incoming, bindings.outgoing, {
            accountId: principal.account.id,
            scopes: form.getAll('scope').map(String),
          })
        : await oauth.denyInteraction(bindings.incoming, bindings.outgoing);
    return c.redirect(to, 303);
  } catch (error) {
    if (error instanceof OAuthInteractionError) return c.text(error.message, 400);
    throw error;
  }
}
