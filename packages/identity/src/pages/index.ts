/**
 * @module @agentready/identity/pages: the parts server-rendered (Preact) pages of a
 * site share: the document around each page, and the sign-in and sign-out
 * forms (server only; needs the optional peers preact and preact-render-to-string).
 */
export { renderSiteDocument } from './site-document.tsx';
export type { SiteDocumentProps } from './site-document.tsx';
export { SignInForm, SignOutForm } from './session-forms.tsx';
export type { SignInFormProps } from './session-forms.tsx';
