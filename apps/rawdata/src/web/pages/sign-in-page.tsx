/**
 * @module The sign-in page: e-mail and password, and where to go after.
 */

/** What the sign-in page shows: the address to go to after, and the problem of a failed attempt. */
export type SignInPageProps = { next: string; problem?: string; email?: string };

/** The sign-in form. */
export function SignInPage({ next, problem, email }: SignInPageProps) {
  return (
    <section>
      <h1>Sign in</h1>
      {problem && (
        <p role="alert" class="problem">
          {problem}
        </p>
      )}
      <form method="post" action="/signin">
        <input type="hidden" name="next" value={next} />
        <label>
          E-mail <input type="email" name="email" autocomplete="username" required value={email ?? ''} />
        </label>
        <label>
          Password <input type="password" name="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}
