/**
 * @module @agentready/identity/pages: the parts server-rendered (Preact) pages of a
 * site share: the document around each page, and the sign-in and sign-out
 * forms, the OAuth consent page's content and a person's activity page's
 * content (server only, but for the consent and activity content, which a site
 * may hydrate; needs the optional peers preact and preact-render-to-string).
 */
export { renderSiteDocument } from './site-document.tsx';
export type { SiteDocumentProps } from './site-document.tsx';
export { SignInForm, SignOutForm } from './session-forms.tsx';
export type { SignInFormProps } from './session-forms.tsx';
export { OAuthConsentContent } from './consent-page.tsx';
export type { ConsentRequestShown, ConsentScopeChoice, OAuthConsentContentProps } from './consent-page.tsx';
export { ActivityContent } from './activity-content.tsx';
export type {
  ActivityContentProps,
  ActivityFilter,
  ActivityFilterClient,
  ActivityRowShown,
  ActivitySiteWords,
  PersonStepWords,
  TouchedLink,
} from './activity-content.tsx';
