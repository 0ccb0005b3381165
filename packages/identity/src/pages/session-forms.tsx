/**
 * @module The forms of a site's own sign-in, server-rendered and working
 * without script: signing in with an e-mail address and password (posted to
 * `/signin` with the page to go on to), and signing out (posted to
 * `/signout` with the session's CSRF token).
 */

/** What {@link SignInForm} shows: where to go after signing in, and the problem of a failed attempt with the e-mail address typed. */
export type SignInFormProps = {
  /** A path of this site the server has checked; sent back as `next`. */
  next: string;
  /** Why the last attempt failed, in one sentence for the person (an alert above the form). */
  problem?: string;
  /** The e-mail address typed in the failed attempt, filled in again. */
  email?: string;
};

/**
 * The sign-in page's content: the heading "Sign in", the problem of a failed
 * attempt (`role="alert"`, class `problem`, test id `sign-in-problem`), and
 * the form (test id `sign-in-form`): `next`, `email`, `password`, posted to
 * `/signin`; the browser's password manager knows the fields by `autocomplete`.
 */
export function SignInForm({ next, problem, email }: SignInFormProps) {
  return (
    <>
      <h1>Sign in</h1>
      {problem && (
        <p role="alert" class="problem" data-testid="sign-in-problem">
          {problem}
        </p>
      )}
      <form method="post" action="/signin" data-testid="sign-in-form">
        <input type="hidden" name="next" value={next} />
        <label>
          E-mail <input type="email" name="email" autocomplete="username" required value={email ?? ''} />
        </label>
        <label>
          Password <input type="password" name="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </>
  );
}

/**
 * The sign-out button, a form (class `inline-form`) posting the session's
 * CSRF token to `/signout`, for a site's navigation.
 *
 * @param buttonClass the button's class, where the site styles it (a link-like button). Default: none.
 */
export function SignOutForm({ csrfToken, buttonClass }: { csrfToken: string; buttonClass?: string }) {
  return (
    <form method="post" action="/signout" class="inline-form">
      <input type="hidden" name="csrf_token" value={csrfToken} />
      <button type="submit" class={buttonClass}>
        Sign out
      </button>
    </form>
  );
}
