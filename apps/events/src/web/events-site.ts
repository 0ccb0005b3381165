/**
 * @module
 * Puts the site together: the API client, the endpoints, the pages and the router.
 */
import { createApiClient, type ApiClient } from './api-client.ts';
import { createEventsApi } from './events-api.ts';
import { renderConnectPage } from './pages/connect-page.ts';
import { renderEventPage } from './pages/event-page.ts';
import { renderEventsPage } from './pages/events-page.ts';
import { renderHomePage } from './pages/home-page.ts';
import { renderNotFoundPage } from './pages/not-found-page.ts';
import { renderRegisterPage } from './pages/register-page.ts';
import { renderRegistrationsPage } from './pages/registrations-page.ts';
import { renderSavedPage } from './pages/saved-page.ts';
import { createRouter, type Router } from './router.ts';

/** The parts of the running site the WebMCP wiring uses. */
export type EventsSite = {
  /** Transport: session, CSRF, `stateVersion`, `postTool`. */
  client: ApiClient;
  /** `navigate(path)`, `onRouteRendered(listener)`, `start()`. */
  router: Router;
};

/**
 * Builds the site for a document that has a `<main id="main">` outlet.
 * Nothing renders until `site.router.start()`.
 *
 * @throws Error when the document has no `#main` element.
 */
export function createEventsSite(win: Window): EventsSite {
  const outlet = win.document.getElementById('main');
  if (outlet === null) throw new Error('The page has no <main id="main"> to render into.');
  const client = createApiClient();
  const api = createEventsApi(client);
  const router = createRouter({
    window: win,
    outlet,
    api,
    siteName: 'AgentReady Events',
    pages: {
      home: renderHomePage,
      events: renderEventsPage,
      event: renderEventPage,
      register: renderRegisterPage,
      registrations: renderRegistrationsPage,
      saved: renderSavedPage,
      connect: renderConnectPage,
      'not-found': renderNotFoundPage,
    },
  });
  return { client, router };
}
