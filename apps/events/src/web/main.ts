/**
 * @module
 * The page's entry point: the site for people, and, where the browser has
 * WebMCP, each route's tools on `document.modelContext`.
 */
import './zod-without-eval.ts';
import { createEventsSite } from './events-site.ts';
import { connectRouteTools } from './webmcp-connection.ts';

const site = createEventsSite(window);
// Listen before the first render, so the first route's tools are registered too.
connectRouteTools(site.router, site.client, window.document);
site.router.start();
