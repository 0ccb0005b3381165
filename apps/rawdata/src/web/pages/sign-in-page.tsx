/**
 * @module The sign-in page: e-mail and password, and where to go after
 * (@agentready/identity/pages `SignInForm`), in a section of its own.
 */
import { SignInForm, type SignInFormProps } from '@agentready/identity/pages';

/** What the sign-in page shows: the address to go to after, and the problem of a failed attempt. */
export type SignInPageProps = SignInFormProps;

/** The sign-in form. */
export function SignInPage(props: SignInPageProps) {
  return (
    <section>
      <SignInForm {...props} />
    </section>
  );
}
