/**
 * @module
 * The page's entry point: reads the page data the server rendered the page
 * from, loads that page's component (its own chunk, page-chunks.tsx),
 * enhances the markup (Preact `hydrate`), moves between pages without
 * reloading, and, where the browser has WebMCP, puts each route's tools on
 * `document.modelContext`: their code is a chunk of its own
 * (webmcp-connection.ts), which a browser without WebMCP never loads.
 */
import './zod-without-eval.ts';
import { findModelContext } from 'agentready/webmcp';
import { hydrate } from 'preact';
import { createApiClient } from './api-client.ts';
import { createEventsApi } from './events-api.ts';
import { loadedPageComponent, loadPageComponent } from './page-chunks.tsx';
import type { PageData } from './page-data.ts';
import { applyPageHeadTags } from './page-head-tags.ts';
import { PageSiteContext } from './page-hooks.ts';
import { matchRoute } from './routes.ts';
import { ClientSiteApp } from './site-shell.tsx';
import { createSiteNavigation } from './site-navigation.ts';

// Where the browser has WebMCP, the tools' chunk starts loading now, beside the page's own.
const webMcpConnection = findModelContext(document) === null ? null : import('./webmcp-connection.ts');

const root = document.getElementById('site');
const dataElement = document.getElementById('page-data');
if (root === null || dataElement === null) throw new Error('The page has no #site or #page-data to start from.');

const client = createApiClient({
  onSessionRefused: () => showWhoIsSignedIn(),
  pageShowsSignedIn: () => navigation.current().data.viewer.signedIn,
});
const api = createEventsApi(client);
const initial = JSON.parse(dataElement.textContent ?? 'null') as PageData;
const navigation = createSiteNavigation({
  window,
  initial,
  expectPage: loadScriptOfPage,
  async loadPage(location) {
    // The page's script loads while its data does (unless it is here already, or on its way since the link was pointed at).
    loadScriptOfPage(location);
    const answer = await api.getPageData(location);
    if (!answer.ok) return null;
    try {
      await loadPageComponent(answer.data.page.route);
    } catch {
      // Without its script the page cannot be shown here: the browser loads it.
      return null;
    }
    return answer.data.page;
  },
  setTitle(data) {
    // The head and the page data describe the page on screen, for whatever reads the live document.
    applyPageHeadTags(document, data, window.location.origin);
    dataElement.textContent = JSON.stringify(data);
  },
});
/**
 * Starts loading the script of the page at `location` (path and query): the
 * chunk of the route its path names, which is nearly always the route of the
 * data it loads. A failure is left to the visit, which loads it again.
 */
function loadScriptOfPage(location: string): void {
  loadPageComponent(matchRoute(new URL(location, window.location.href).pathname).name).catch(() => undefined);
}

/**
 * After the server refused the session (it ended, or a second session cookie
 * came with a request and both were cleared): when the page shows someone
 * signed in, asks who this browser is now, without opening a session, and if
 * nobody, shows the page as a visitor sees it (the header offers "Sign in").
 * The page's next call opens a session only after this settles.
 */
async function showWhoIsSignedIn(): Promise<void> {
  const shown = navigation.current();
  if (!shown.data.viewer.signedIn) return;
  const answer = await api.getPageDataWithoutSession(shown.location);
  if (!answer.ok) {
    // The page cannot tell: the browser loads it afresh, as the server sees this browser now.
    window.location.reload();
    return;
  }
  if (!answer.data.page.viewer.signedIn) navigation.replaceData(answer.data.page);
}

// The page's tools are registered as soon as their chunk is here: the page on screen's at once, then each page shown.
const toolsConnected = webMcpConnection?.then(
  ({ connectRouteTools }) => {
    connectRouteTools(navigation, client, document);
  },
  (error: unknown) => console.error('The page’s tools could not be loaded; the page works without them.', error),
);

// The server's markup stays as it is (links and forms work without the script) until the page's chunk is here.
// Not a top-level await: the pages' chunks import from this module (the shared script), and would wait for it.
const enhanced = loadPageComponent(initial.route).then(
  () => {
    hydrate(
      <PageSiteContext.Provider value={{ api, navigate: navigation.navigate, replaceQuery: navigation.replaceQuery }}>
        <ClientSiteApp navigation={navigation} pageOf={loadedPageComponent} />
      </PageSiteContext.Provider>,
      root,
    );
    navigation.start();
  },
  (error: unknown) => console.error('The page’s script could not be loaded; the page works as the server sent it.', error),
);

// `<html data-enhanced>` says the script has done what it does at start: the page is hydrated (or left as the
// server sent it, when its chunk failed) and, in a browser with WebMCP, the tools' chunk has loaded and the
// page's tools are handed to WebMCP. Styles and tests read it; nothing waits on it.
Promise.allSettled([enhanced, toolsConnected]).then(() => {
  document.documentElement.dataset['enhanced'] = '';
});
