/**
 * @module A Hono café made agent-ready: its page for guests, and its tools
 * for agents over MCP (`/mcp`) and in the page (WebMCP). Guests are the
 * page's visitors; MCP clients may read and prepare orders, which a guest
 * confirms.
 */
import { serve } from '@hono/node-server';
import { createAgentSite } from 'agentready/site';
import { Hono } from 'hono';
import { MENU, openCafe } from './menu.ts';
import { findDishes } from './tools/find-dishes.ts';
import { placeOrder } from './tools/place-order.ts';
import { saveFavorite } from './tools/save-favorite.ts';

const site = createAgentSite({ name: 'Café', tools: [findDishes, saveFavorite, placeOrder], app: openCafe() });

const app = new Hono();
app.all('/mcp', (c) => site.fetch(c.req.raw));
app.all('/agentready/*', (c) => site.fetch(c.req.raw));
app.get('/', (c) =>
  c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Café</title>
<script type="module" src="/agentready/webmcp.js"></script></head>
<body><h1>Café</h1><ul>${MENU.map((dish) => `<li>${dish.name}, ${dish.priceEur} EUR</li>`).join('')}</ul></body></html>`),
);

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, ({ port }) => {
  console.log(`Café at http://localhost:${port} (MCP at http://localhost:${port}/mcp)`);
});
