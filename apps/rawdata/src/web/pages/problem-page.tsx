/**
 * @module The page a person meets when there is nothing to show them: not
 * found, not allowed, or a refusal, in words, with where to go instead.
 */

/** What the problem page says. */
export type ProblemPageProps = { title: string; message: string; link?: { href: string; text: string } };

/** The page: a heading, the message as an alert, and a way on. */
export function ProblemPage({ title, message, link }: ProblemPageProps) {
  return (
    <section>
      <h1>{title}</h1>
      <p role="alert" class="problem" data-testid="problem-message">
        {message}
      </p>
      {link && (
        <p>
          <a href={link.href}>{link.text}</a>
        </p>
      )}
    </section>
  );
}
