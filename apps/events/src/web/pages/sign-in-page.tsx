/**
 * @module
 * `/signin` and `/signup` (with `?next=`, a path of this site the server
 * already checked, routes.ts `nextPathOf`): e-mail and password, and the
 * link to the other page. The form is a plain one: without the page's script
 * it posts `email`, `password` and `next` to `/signin` or `/signup`, and the
 * server answers with the page at `next` or this page with its refusal. The
 * script only enhances it: sign in posts `POST /api/account/sign-in`, sign up
 * `POST /api/account/sign-up`, with the visitor session's CSRF token; on
 * success the page at `next` loads afresh, as the session and its token
 * changed. A refusal about a field is said next to it; any other (wrong
 * e-mail or password, too many tries) above the button. The page offers the
 * agent no tools (route-tools.ts): a password is the person's to type.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { LabelledInput, passwordRule } from '../components/labelled-input.tsx';
import type { SignInPageData, SignInRefusal } from '../page-data.ts';
import { loadDocument, useEnhanced, usePageSite, useRouteControls, useSingleFlight, useViewer } from '../page-hooks.ts';
import { signInPath, signUpPath } from '../routes.ts';

/** The sign-in or sign-up page, by `data.route`. */
export function SignInPage({ data }: { data: SignInPageData }) {
  useRouteControls(data.route, {});
  const viewer = useViewer();
  const signingUp = data.route === 'signup';
  return (
    <>
      <h1>{signingUp ? 'Create an account' : 'Sign in'}</h1>
      {viewer.signedIn ? (
        <p class="message" data-testid="already-signed-in" role="status">
          You are signed in. <a href={data.next}>Continue</a> or go to <a href="/account">your account</a>.
        </p>
      ) : (
        <>
          <p class="lead">
            {signingUp
              ? 'With an account you can register for events, and what you save stays with you on every browser you sign in with.'
              : 'Sign in to register for events, see your registrations and connect an agent.'}
          </p>
          <CredentialsForm data={data} />
          <p class="form-switch" data-testid="sign-in-switch">
            {signingUp ? (
              <>
                Already have an account?{' '}
                <a href={signInPath(data.next)} data-testid="to-signin">
                  Sign in
                </a>
              </>
            ) : (
              <>
                New here?{' '}
                <a href={signUpPath(data.next)} data-testid="to-signup">
                  Create an account
                </a>
              </>
            )}
          </p>
        </>
      )}
    </>
  );
}

/**
 * The form: a plain post to `/signin` or `/signup` until the page's script
 * runs, which then sends it through the API and keeps the person on the page
 * while it answers.
 */
function CredentialsForm({ data }: { data: SignInPageData }) {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const once = useSingleFlight();
  const signingUp = data.route === 'signup';
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<SignInRefusal | null>(data.refusal ?? null);
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const formMessage = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (refusal === null) return;
    // The button was disabled while sending: focus goes where the person acts next.
    const target = refusal.field === 'email' ? email : refusal.field === 'password' ? password : formMessage;
    target.current?.focus();
  }, [refusal]);

  async function send(): Promise<void> {
    const credentials = { email: email.current?.value ?? '', password: password.current?.value ?? '' };
    setSending(true);
    setRefusal(null);
    const answer = signingUp ? await site.api.signUp(credentials) : await site.api.signIn(credentials);
    if (answer.ok) {
      loadDocument(data.next);
      return;
    }
    setSending(false);
    setRefusal(signInRefusalOf(answer.error));
  }

  const fieldError = (field: 'email' | 'password') => (refusal?.field === field ? refusal.message : null);
  return (
    <form
      class="account-form"
      data-testid={signingUp ? 'signup-form' : 'signin-form'}
      method="post"
      action={signingUp ? '/signup' : '/signin'}
      noValidate
      onSubmit={(event) => {
        if (!enhanced) return;
        event.preventDefault();
        void once(send);
      }}
    >
      <input type="hidden" name="next" value={data.next} />
      <LabelledInput
        id="account-email"
        name="email"
        {...(data.email !== undefined && { defaultValue: data.email })}
        label="E-mail"
        type="email"
        autocomplete="email"
        hint={null}
        error={fieldError('email')}
        inputRef={email}
        testId="account-email"
      />
      <LabelledInput
        id="account-password"
        name="password"
        label="Password"
        type="password"
        autocomplete={signingUp ? 'new-password' : 'current-password'}
        hint={signingUp ? passwordRule(data.passwordMinLength) : null}
        error={fieldError('password')}
        inputRef={password}
        testId="account-password"
      />
      {refusal !== null && refusal.field === null && (
        <p class="message message-error" data-testid="account-form-error" role="alert" tabIndex={-1} ref={formMessage}>
          {refusal.message}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="button button-primary" data-testid="account-submit" disabled={sending}>
          {signingUp ? 'Create account' : 'Sign in'}
        </button>
      </div>
    </form>
  );
}

/**
 * A refusal of the server (the API's failure, or the form post's) as the
 * form shows it: next to the field it names, else for the form. A refusal
 * for too many tries (RATE_LIMITED) already says when to try again, once.
 */
export function signInRefusalOf(error: { field?: string | undefined; message: string }): SignInRefusal {
  if (error.field === 'email' || error.field === 'password') return { field: error.field, message: error.message };
  return { field: null, message: error.message };
}
