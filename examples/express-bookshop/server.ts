/**
 * @module A plain Express bookshop made agent-ready: its page for people,
 * and its tools for agents over MCP (`/mcp`) and in the page (WebMCP).
 */
import { createAgentSite } from 'agentready/site';
import express from 'express';
import { BOOKS, openBookshop } from './books.ts';
import { ownerToken } from './owner-token.ts';
import { findBooks } from './tools/find-books.ts';
import { orderBook } from './tools/order-book.ts';
import { wishBook } from './tools/wish-book.ts';

const shop = openBookshop();
const site = createAgentSite({
  name: 'Bookshop',
  tools: [findBooks, wishBook, orderBook],
  app: shop,
  verifyAccessToken: ownerToken(process.env.BOOKSHOP_AGENT_TOKEN),
});

const app = express();
// The site's routes (/mcp, /agentready/...) first: it reads request bodies itself.
app.use(site.nodeHandler);
app.get('/', (_request, response) => {
  const items = BOOKS.map((book) => `<li>${book.title} by ${book.author}, ${book.priceUsd} USD</li>`).join('');
  response.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bookshop</title>
<script type="module" src="/agentready/webmcp.js"></script></head>
<body><h1>Bookshop</h1><ul>${items}</ul></body></html>`);
});

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  const { port } = server.address() as { port: number };
  console.log(`Bookshop at http://localhost:${port} (MCP at http://localhost:${port}/mcp)`);
});
