/**
 * @module A process that builds a site with `createMcpHttpEndpoint` on `/mcp`
 * and a plain page on `/`, asks for the page, then initializes an MCP
 * session, and prints as JSON whether the MCP server SDK had been loaded
 * after each. Run as `node --conditions=agentready-source --import tsx
 * lazy-sdk-process.ts`; sdk-load-hooks.mjs records what is loaded.
 */
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const sdkUrls: string[] = [];
let flushed: (() => void) | undefined;
port1.on('message', (message: string) => {
  if (message === 'flushed') flushed?.();
  else sdkUrls.push(message);
});
port1.unref();
register('./sdk-load-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

/** Whether the SDK was loaded so far: every report sent before this call has arrived when it answers. */
async function sdkLoaded(): Promise<boolean> {
  // The port keeps the process up only while an answer is awaited.
  port1.ref();
  const arrived = new Promise<void>((resolve) => (flushed = resolve));
  port1.postMessage('flush');
  await arrived;
  port1.unref();
  return sdkUrls.length > 0;
}

const { Hono } = await import('hono');
const { createMcpHttpEndpoint } = await import('../../src/mcp/http-endpoint.ts');
const { echoCatalog: catalog, echoPipeline: pipeline } = await import('./echo-tool-pipeline.ts');
const endpoint = createMcpHttpEndpoint({ serverInfo: { name: 'echo', version: '1.0.0' }, catalog, pipeline });
const site = new Hono();
site.get('/', (c) => c.text('Welcome'));
site.all('/mcp', (c) => endpoint.fetch(c.req.raw));

const page = await site.request('http://localhost/', { headers: { host: 'localhost' } });
const afterPage = { status: page.status, text: await page.text(), sdkLoaded: await sdkLoaded() };
const initialize = await site.request('http://localhost/mcp', {
  method: 'POST',
  headers: { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
  }),
});
const afterInitialize = { status: initialize.status, text: await initialize.text(), sdkLoaded: await sdkLoaded() };
await endpoint.close();
process.stdout.write(`${JSON.stringify({ afterPage, afterInitialize })}\n`);
