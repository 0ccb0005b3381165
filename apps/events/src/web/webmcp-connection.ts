/**
 * @module Connects the router to the browser's WebMCP: on every rendered route,
 * the previous route's tools are unregistered and this route's profile is
 * registered (docs/architecture.md, "One call's path"). Without `document.modelContext` the
 * page works for people and offers no tools.
 *
 * The page loads this module, with everything only the tools need (their
 * contracts, the registry, the result envelope), as a chunk of its own, and
 * only in a browser with WebMCP (main.tsx).
 */
import { createRouteToolRegistry, findModelContext } from 'agentready/webmcp';
import type { ApiClient } from './api-client.ts';
import { isRoute, type RegisterControls, type RouteRenderedArgs } from './page-controls.ts';
import { callSiteTool } from './page-tool-calls.ts';
import type { SiteNavigation } from './site-navigation.ts';
import { toolsForRoute } from './route-tools.ts';
import { registerPath } from './routes.ts';

/**
 * Registers each rendered route's tools on `document.modelContext`: the
 * page on screen's at once (when one has been rendered already), then every
 * page rendered from now on.
 *
 * @returns false when the browser has no WebMCP (nothing registered), true otherwise.
 */
export function connectRouteTools(navigation: SiteNavigation, api: ApiClient, doc: Document = document): boolean {
  const modelContext = findModelContext(doc);
  if (!modelContext) return false;
  const registry = createRouteToolRegistry({
    modelContext,
    callServer: (tool, input) => callSiteTool(api, tool, input),
    stateVersion: () => api.getStateVersion(),
    onRegistrationError: (tool, error) => console.error(`WebMCP refused the tool ${tool}.`, error),
    onPageError: (tool, error) => console.error(`The page failed while running ${tool}.`, error),
  });
  let latest: RouteRenderedArgs | null = null;

  async function openRegistrationForm(eventId: string): Promise<RegisterControls> {
    await navigation.navigate(registerPath(eventId));
    // navigate() resolves once the new page has announced its controls.
    const rendered = latest;
    if (!rendered || !isRoute(rendered, 'register')) throw new Error('The registration page did not open.');
    const controls = rendered[1];
    await controls.ready();
    return controls;
  }

  // A page being left offers nothing while the next one loads.
  navigation.onLeave(() => registry.leave());
  navigation.onRouteRendered((...args) => {
    latest = args;
    registry.enter(args[0].path, toolsForRoute(args, { openRegistrationForm }));
  });
  return true;
}
