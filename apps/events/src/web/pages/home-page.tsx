/**
 * @module
 * `/`: what the site is, and the way in.
 */
import { useRouteControls } from '../page-hooks.ts';

/** The home page. */
export function HomePage() {
  useRouteControls('home', {});
  return (
    <>
      <h1>AgentReady Events</h1>
      <p class="lead">Talks, workshops and meetups across Taiwan. Find an event, save it for later, and register for a place.</p>
      <p>An AI assistant in your browser can search and prepare for you here; registering and cancelling always wait for your click.</p>
      <p>
        <a class="button button-primary" data-testid="browse-events" href="/events">
          Browse events
        </a>
      </p>
    </>
  );
}
