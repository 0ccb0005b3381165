/**
 * @module `/oauth/interaction/:uid`: where a person lets a chat host (or
 * another MCP client) act for them on GiftGenius, after it sent them here:
 * the toolkit's consent content (@agentready/identity/pages
 * `OAuthConsentContent`) in GiftGenius's words. Allow and Deny are a plain form.
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
      siteName="GiftGenius"
      startedFrom="your chat"
      classes={{ deny: 'secondary', problem: 'problem' }}
      limits={
        <>
          It can never buy anything by itself: a checkout opens only when you click Confirm in the chat, and you pay on the payment page. You can disconnect it
          at any time on your account page.
        </>
      }
    />
  );
}
