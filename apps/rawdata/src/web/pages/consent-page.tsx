/**
 * @module `/oauth/interaction/:uid`: where an analyst lets an MCP client act
 * for them on Rawdata, after the client sent them here: the toolkit's consent
 * content (@agentready/identity/pages `OAuthConsentContent`) in Rawdata's
 * words. Allow and Deny are a plain form.
 */
import { OAuthConsentContent } from '@agentready/identity/pages';
import type { OAuthConsentView } from '@agentready/identity/oauth';

/** What the consent page shows: the interaction's view (@agentready/identity/oauth `consentPageData`) and whether someone is signed in. */
export type ConsentPageProps = { uid: string; view: OAuthConsentView; signedIn: boolean };

/** The consent page. */
export function ConsentPage({ uid, view, signedIn }: ConsentPageProps) {
  return (
    <OAuthConsentContent
      uid={uid}
      request={view.request}
      error={view.error}
      signedIn={signedIn}
      siteName="Rawdata requests"
      startedFrom="your agent"
      classes={{ deny: 'secondary', problem: 'problem' }}
      limits={
        <>
          It can never submit an application by itself: a submission needs the confirmation code you get only when you press Confirm on the draft’s review page.
          You can disconnect it at any time on <a href="/connect">Connect an agent</a>.
        </>
      }
    />
  );
}
