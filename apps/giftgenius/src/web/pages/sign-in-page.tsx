/**
 * @module `/signin`: e-mail and password, and the page to go on to.
 */

/** What the sign-in page shows: where to go after, and the problem of a failed attempt (with the e-mail typed). */
export type SignInPageProps = { next: string; problem?: string; email?: string };

/** The sign-in form. */
export function SignInPage({ next, problem, email }: SignInPageProps) {
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
