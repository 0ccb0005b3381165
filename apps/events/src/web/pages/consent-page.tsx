/**
 * @module
 * `/oauth/interaction/:uid`: the page where a person lets an MCP client (a
 * hosted chat app, an IDE) act for them, after it sent them here to sign in
 * (OAuth 2.1, docs/identity.md): the toolkit's consent content
 * (@agentready/identity/pages `OAuthConsentContent`) in this site's words
 * and button styles. Allow and Deny are a plain form, so it works without
 * the page's script. No tool is offered here: an agent must never approve
 * its own access.
 */
import { OAuthConsentContent } from '@agentready/identity/pages';
import type { ConsentPageData } from '../page-data.ts';
import { useRouteControls } from '../page-hooks.ts';

/** The consent page. */
export function ConsentPage({ data }: { data: ConsentPageData }) {
  useRouteControls('consent', {});
  return (
    <OAuthConsentContent
      uid={data.uid}
      request={data.request}
      error={data.error}
      signedIn={data.signedIn}
      siteName="this site"
      startedFrom="the app"
      classes={{ allow: 'button button-primary', deny: 'button', signIn: 'button', problem: 'message message-error' }}
      limits={
        <>
          It can never register you for an event or cancel a registration: you confirm those yourself on this site. You can disconnect it at any time on{' '}
          <a href="/connect">Connect an agent</a>, and see what it did on <a href="/activity">Activity</a>.
        </>
      }
    />
  );
}
