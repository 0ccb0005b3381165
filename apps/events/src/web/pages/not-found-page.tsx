/**
 * @module
 * The page for an address the site does not have (answered with HTTP 404):
 * says so, and offers the ways on.
 */
import { useRouteControls } from '../page-hooks.ts';

/** The 404 page. */
export function NotFoundPage() {
  useRouteControls('not-found', {});
  return (
    <section class="not-found" data-testid="not-found" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Page not found</h1>
      <p>There is nothing at this address. It may have been mistyped, or the page has moved.</p>
      <ul class="next-steps">
        <li>
          <a href="/events">Browse and search events</a>
        </li>
        <li>
          <a href="/registrations">See your registrations</a>
        </li>
        <li>
          <a href="/">Go to the home page</a>
        </li>
      </ul>
    </section>
  );
}
