/**
 * @module The network address a request came from, for limits that count per
 * caller when there is no principal to count under.
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The remote address of the connection the request came on (the Node
 * server's socket), or undefined when there is none: a request handed to
 * `app.request()` in a test, or one the server's socket no longer knows.
 * Behind a reverse proxy this is the proxy's address; forwarded headers are
 * not trusted (anyone can send them).
 */
export function callerAddressOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
