/**
 * @module
 * The page's entry point: reads the page data the server rendered the page
 * from, enhances that markup (Preact `hydrate`), moves between pages without
 * reloading, and, where the browser has WebMCP, puts each route's tools on
 * `document.modelContext`.
 */
import './zod-without-eval.ts';
import { hydrate } from 'preact';
import { createApiClient } from './api-client.ts';
import { createEventsApi } from './events-api.ts';
import type { PageData } from './page-data.ts';
import { applyPageHeadTags } from './page-head-tags.ts';
import { PageSiteContext } from './page-hooks.ts';
import { ClientSiteApp } from './site-shell.tsx';
import { createSiteNavigation } from './site-navigation.ts';
import { connectRouteTools } from './webmcp-connection.ts';

const root = document.getElementById('site');
const dataElement = document.getElementById('page-data');
if (root === null || dataElement === null) throw new Error('The page has no #site or #page-data to start from.');

const client = createApiClient();
const api = createEventsApi(client);
const navigation = createSiteNavigation({
  window,
  initial: JSON.parse(dataElement.textContent ?? 'null') as PageData,
  async loadPage(location) {
    const answer = await api.getPageData(location);
    return answer.ok ? answer.data.page : null;
  },
  setTitle(data) {
    // The head and the page data describe the page on screen, for whatever reads the live document.
    applyPageHeadTags(document, data, window.location.origin);
    dataElement.textContent = JSON.stringify(data);
  },
});
// Listen before the first render, so the first route's tools are registered too.
connectRouteTools(navigation, client, document);
hydrate(
  <PageSiteContext.Provider value={{ api, navigate: navigation.navigate, replaceQuery: navigation.replaceQuery }}>
    <ClientSiteApp navigation={navigation} />
  </PageSiteContext.Provider>,
  root,
);
navigation.start();
