/**
 * @module A process that builds a site with `createMcpHttpEndpoint` on `/mcp`
 * and a plain page on `/`, asks for the page, then initializes an MCP
 * session, and prints as JSON whether the MCP server SDK had been loaded
 * after each. Run as `node --conditions=agentready-source --import tsx
 * lazy-sdk-process.ts`; sdk-load-hooks.mjs records what is loaded.
 *
 * With `AGENTREADY_TEST_FAIL_FIRST_MCP_LOAD=1` in its environment, the hooks
 * make the first load of the endpoint's serving module fail; the process then
 * also asks for the page after that first `initialize` and initializes again,
 * and prints the messages of the errors the endpoint gave `onError`.
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
const failFirstServingLoad = process.env['AGENTREADY_TEST_FAIL_FIRST_MCP_LOAD'] === '1';
register('./sdk-load-hooks.mjs', import.meta.url, { data: { port: port2, failFirstServingLoad }, transferList: [port2] });

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
const errors: string[] = [];
const endpoint = createMcpHttpEndpoint({
  serverInfo: { name: 'echo', version: '1.0.0' },
  catalog,
  pipeline,
  onError: (error) => errors.push(error.message),
});
const site = new Hono();
site.get('/', (c) => c.text('Welcome'));
site.all('/mcp', (c) => endpoint.fetch(c.req.raw));

/** Asks for the page, and tells its answer and whether the SDK is loaded by then. */
async function page() {
  const answer = await site.request('http://localhost/', { headers: { host: 'localhost' } });
  return { status: answer.status, text: await answer.text(), sdkLoaded: await sdkLoaded() };
}

/** Initializes an MCP session, and tells the answer and whether the SDK is loaded by then. */
async function initialize() {
  const answer = await site.request('http://localhost/mcp', {
    method: 'POST',
    headers: { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    }),
  });
  return { status: answer.status, text: await answer.text(), sdkLoaded: await sdkLoaded() };
}

const afterPage = await page();
const steps = failFirstServingLoad
  ? { afterPage, afterFailedInitialize: await initialize(), afterPageBetween: await page(), afterInitialize: await initialize() }
  : { afterPage, afterInitialize: await initialize() };
await endpoint.close();
process.stdout.write(`${JSON.stringify({ ...steps, errors })}\n`);
