/**
 * @module Module hooks (`module.register`) that tell the main thread, on the
 * port given as `data.port`, each URL resolved that belongs to the MCP
 * server SDK; a message `flush` is answered `flushed` after every report
 * sent before it (messages on a port keep their order). With
 * `data.failFirstServingLoad`, the first resolution of
 * http-endpoint-serving.ts throws, as a load that fails would: its message
 * names a file path, which the endpoint must not answer with.
 */
let port;
let failServingLoad = false;

/** Keeps the port the reports go to, and whether the first load of the serving module is to fail. */
export function initialize(data) {
  port = data.port;
  failServingLoad = data.failFirstServingLoad === true;
  port.on('message', (message) => {
    if (message === 'flush') port.postMessage('flushed');
  });
  port.unref();
}

/**
 * Reports a resolved URL of the MCP server SDK, then answers as the next hook
 * does. The resolution is where a failure is made: Node keeps a module whose
 * load (or whose dependency's resolution or load) failed as failed for the
 * process, so a failure there could not be tried again by any endpoint, while
 * a failed resolution of the module itself is not kept.
 */
export async function resolve(specifier, context, nextResolve) {
  if (failServingLoad && specifier.includes('http-endpoint-serving')) {
    failServingLoad = false;
    throw new Error(`Simulated load failure: cannot read ${new URL(specifier, context.parentURL).pathname}`);
  }
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes('@modelcontextprotocol/server')) port.postMessage(resolved.url);
  return resolved;
}
