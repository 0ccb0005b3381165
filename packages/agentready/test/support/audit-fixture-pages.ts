/**
 * @module Web pages for the audit's page tests: `/kept/` registers tools that
 * keep every page rule and unregisters a route's tools when the page moves to
 * another route; `/broken/` registers one tool per broken rule and keeps its
 * first route's tool after moving (client-side, with history.pushState) to
 * `/broken/other`. Served on 127.0.0.1 by the test.
 */
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';

/** The script of both pages: the variant is the first path segment. */
const PAGE_SCRIPT = `
const context = document.modelContext ?? navigator.modelContext;
const variant = location.pathname.split('/')[1];
let routeTools = new AbortController();
const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
function register(tool) { context.registerTool(tool, { signal: routeTools.signal }); }
function route() {
  const other = location.pathname.endsWith('/other');
  document.querySelector('h1').textContent = other ? 'Other' : 'Home';
  if (variant === 'kept') { routeTools.abort(); routeTools = new AbortController(); }
  if (other) {
    register({ name: 'other_lookup', description: 'Returns the other page’s items.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {}, additionalProperties: false }, execute: async () => text({ items: [] }) });
    return;
  }
  if (variant === 'kept') {
    register({ name: 'search_items', description: 'Finds items by word. Returns each item’s id and name.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { word: { type: 'string', examples: ['tea'] } }, required: ['word'], additionalProperties: false }, execute: async () => text({ items: [{ id: 'i1', name: 'Tea' }] }) });
    register({ name: 'place_order', description: 'Fills the order form; the person reviews it and presses Submit. Returns the form’s fields.', inputSchema: { type: 'object', properties: { item_id: { type: 'string' } }, required: ['item_id'], additionalProperties: false }, execute: async () => text({ filled: true }) });
    return;
  }
  register({ name: 'home_search', description: 'Returns the home page’s items.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {}, additionalProperties: false }, execute: async () => text({ items: [] }) });
  register({ name: 'get_weather', description: 'Returns today’s weather.', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, execute: async () => text({ sky: 'clear' }) });
  register({ name: 'read_reviews', description: 'Returns the reviews customers wrote.', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {}, additionalProperties: false }, execute: async () => text({ reviews: [] }) });
  register({ name: 'submit_order', description: 'Submits the order in the form. Returns the order number.', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, execute: async () => text({ order: 1 }) });
}
document.addEventListener('click', (event) => {
  const link = event.target.closest('a');
  if (!link || new URL(link.href).origin !== location.origin) return;
  event.preventDefault();
  history.pushState(null, '', link.href);
  route();
});
route();
`;

function page(variant: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${variant}</title></head><body><h1></h1><nav><a href="/${variant}/">Home</a> <a href="/${variant}/other">Other</a></nav><script type="module">${PAGE_SCRIPT}</script></body></html>`;
}

/**
 * Serves `/kept/`, `/kept/other`, `/broken/` and `/broken/other` (HTML) on a
 * free port of 127.0.0.1; anything else is 404.
 */
export function serveAuditFixturePages(): Promise<LoopbackListener> {
  return listenOnLoopback(async function answer(request: Request) {
    const [, variant, rest = ''] = new URL(request.url).pathname.split('/');
    if ((variant === 'kept' || variant === 'broken') && (rest === '' || rest === 'other')) {
      return new Response(page(variant), { headers: { 'content-type': 'text/html; charset=utf-8' } });
    }
    return new Response('Not found', { status: 404 });
  });
}
