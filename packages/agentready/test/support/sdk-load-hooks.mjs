/**
 * @module Module hooks (`module.register`) that tell the main thread, on the
 * port given as `data.port`, each URL resolved that belongs to the MCP
 * server SDK; a message `flush` is answered `flushed` after every report
 * sent before it (messages on a port keep their order).
 */
let port;

/** Keeps the port the reports go to. */
export function initialize(data) {
  port = data.port;
  port.on('message', (message) => {
    if (message === 'flush') port.postMessage('flushed');
  });
  port.unref();
}

/** Reports a resolved URL of the MCP server SDK, then answers as the next hook does. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes('@modelcontextprotocol/server')) port.postMessage(resolved.url);
  return resolved;
}
