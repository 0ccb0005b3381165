/**
 * @module Connects the router to the browser's WebMCP: on every rendered route,
 * the previous route's tools are unregistered and this route's profile is
 * registered (docs/architecture.md, "One call's path"). Without `document.modelContext` the
 * page works for people and offers no tools.
 */
import { createRouteToolRegistry, findModelContext } from 'agentready/webmcp';
import type { ApiClient } from './api-client.ts';
import { isRoute, type RegisterControls, type RouteRenderedArgs } from './page-controls.ts';
import type { Router } from './router.ts';
import { toolsForRoute } from './route-tools.ts';

/**
 * Registers each rendered route's tools on `document.modelContext`.
 *
 * @returns false when the browser has no WebMCP (nothing registered), true otherwise.
 */
export function connectRouteTools(router: Router, api: ApiClient, doc: Document = document): boolean {
  const modelContext = findModelContext(doc);
  if (!modelContext) return false;
  const registry = createRouteToolRegistry({
    modelContext,
    callServer: (tool, input) => api.postTool(tool, input),
    stateVersion: () => api.getStateVersion(),
    onRegistrationError: (tool, error) => console.error(`WebMCP refused the tool ${tool}.`, error),
    onPageError: (tool, error) => console.error(`The page failed while running ${tool}.`, error),
  });
  let latest: RouteRenderedArgs | null = null;

  async function openRegistrationForm(eventId: string): Promise<RegisterControls> {
    router.navigate(`/events/${encodeURIComponent(eventId)}/register`);
    // The router renders and announces synchronously, so the new route is here now.
    const rendered = latest;
    if (!rendered || !isRoute(rendered, 'register')) throw new Error('The registration page did not open.');
    const controls = rendered[1];
    await controls.ready();
    return controls;
  }

  router.onRouteRendered((...args) => {
    latest = args;
    registry.enter(args[0].path, toolsForRoute(args, { openRegistrationForm }));
  });
  return true;
}
