/**
 * @module A fetch handler served over real HTTP on 127.0.0.1 at a free port,
 * for tests whose browser or MCP client must reach the site over a socket.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A listening server: its origin, and how to stop it now. */
export type LoopbackListener = {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Stops listening and closes every open connection (browsers keep them alive), so the server stops now. */
  close(): Promise<void>;
};

/**
 * Serves `fetch` with `@hono/node-server` on 127.0.0.1, port 0 (any free one).
 *
 * @throws the listener's error (nothing is left listening then).
 */
export async function listenOnLoopback(fetch: (request: Request) => Response | Promise<Response>): Promise<LoopbackListener> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
    listening.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
