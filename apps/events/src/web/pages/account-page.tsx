/**
 * @module
 * `/account`: change the password (`POST /api/account/password`, which ends
 * the account's other sessions and says how many), sign out of this browser,
 * and sign out everywhere (`POST /api/account/sign-out-everywhere`: every
 * browser's session ends; personal access tokens stay and are managed on
 * /connect). Signed out, the page asks the person to sign in and come back.
 * It offers the agent no tools (route-tools.ts).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { LabelledInput, passwordRule } from '../components/labelled-input.tsx';
import { loadDocument, useEnhanced, usePageSite, useRouteControls, useSingleFlight, useViewer } from '../page-hooks.ts';
import { signInPath } from '../routes.ts';

/** The account page. */
export function AccountPage({ data }: { data: { passwordMinLength: number } }) {
  useRouteControls('account', {});
  const viewer = useViewer();
  if (!viewer.signedIn) {
    return (
      <>
        <h1>Account</h1>
        <p class="message" data-testid="account-signed-out">
          <a href={signInPath('/account')} data-testid="account-sign-in">
            Sign in
          </a>{' '}
          to change your password or sign out of every browser.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Account</h1>
      <ChangePasswordSection passwordMinLength={data.passwordMinLength} />
      <SignOutSection />
    </>
  );
}

/** What the last password change came to. */
type ChangeOutcome = { kind: 'changed'; endedSessions: number } | { kind: 'refused'; field: 'currentPassword' | 'newPassword' | null; message: string };

function ChangePasswordSection({ passwordMinLength }: { passwordMinLength: number }) {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const once = useSingleFlight();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const current = useRef<HTMLInputElement>(null);
  const next = useRef<HTMLInputElement>(null);
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome === null) return;
    const target = outcome.kind === 'changed' ? status : outcome.field === 'currentPassword' ? current : outcome.field === 'newPassword' ? next : status;
    target.current?.focus();
  }, [outcome]);

  async function change(): Promise<void> {
    setSending(true);
    setOutcome(null);
    const answer = await site.api.changePassword({ currentPassword: current.current?.value ?? '', newPassword: next.current?.value ?? '' });
    setSending(false);
    if (answer.ok) {
      for (const input of [current.current, next.current]) if (input !== null) input.value = '';
      setOutcome({ kind: 'changed', endedSessions: answer.data.endedSessions });
      return;
    }
    const { field } = answer.error;
    setOutcome({ kind: 'refused', field: field === 'currentPassword' || field === 'newPassword' ? field : null, message: answer.error.message });
  }

  const fieldError = (field: 'currentPassword' | 'newPassword') => (outcome?.kind === 'refused' && outcome.field === field ? outcome.message : null);
  return (
    <section class="account-section" aria-labelledby="change-password-heading">
      <h2 id="change-password-heading">Change password</h2>
      <form
        class="account-form"
        data-testid="change-password-form"
        method="post"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (enhanced) void once(change);
        }}
      >
        <LabelledInput
          id="current-password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          hint={null}
          error={fieldError('currentPassword')}
          inputRef={current}
          testId="current-password"
        />
        <LabelledInput
          id="new-password"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint={passwordRule(passwordMinLength)}
          error={fieldError('newPassword')}
          inputRef={next}
          testId="new-password"
        />
        <div role="status">
          {outcome?.kind === 'changed' && (
            <p class="message message-success" data-testid="password-changed" tabIndex={-1} ref={status}>
              Your password was changed. {endedSessionsWords(outcome.endedSessions)}
            </p>
          )}
        </div>
        {outcome?.kind === 'refused' && outcome.field === null && (
          <p class="message message-error" data-testid="change-password-error" role="alert" tabIndex={-1} ref={status}>
            {outcome.message}
          </p>
        )}
        <div class="form-actions">
          <button type="submit" class="button button-primary" data-testid="change-password" disabled={!enhanced || sending}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}

/** How many other sessions a password change ended, in words. */
function endedSessionsWords(ended: number): string {
  if (ended === 0) return 'You were not signed in on any other browser.';
  return `${ended} other ${ended === 1 ? 'session was' : 'sessions were'} signed out.`;
}

/** Sign out here, or everywhere; either way the home page loads afresh. */
function SignOutSection() {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const once = useSingleFlight();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOut(everywhere: boolean): Promise<void> {
    setSending(true);
    setError(null);
    const answer = everywhere ? await site.api.signOutEverywhere() : await site.api.signOut();
    if (answer.ok) {
      loadDocument('/');
      return;
    }
    setSending(false);
    setError(answer.error.message);
  }

  return (
    <section class="account-section" aria-labelledby="sign-out-heading">
      <h2 id="sign-out-heading">Sign out</h2>
      <p>Sign out of this browser only.</p>
      <p class="form-actions">
        <button type="button" class="button" data-testid="account-sign-out" disabled={!enhanced || sending} onClick={() => void once(() => signOut(false))}>
          Sign out
        </button>
      </p>
      <p id="sign-out-everywhere-note">
        Sign out everywhere ends your session on every browser where you are signed in, this one included. Your personal access tokens keep working: see and
        revoke them on <a href="/connect">Connect an agent</a>.
      </p>
      <p class="form-actions">
        <button
          type="button"
          class="button"
          data-testid="sign-out-everywhere"
          aria-describedby="sign-out-everywhere-note"
          disabled={!enhanced || sending}
          onClick={() => void once(() => signOut(true))}
        >
          Sign out everywhere
        </button>
      </p>
      {error !== null && (
        <p class="message message-error" data-testid="sign-out-error-account" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
