/**
 * @module Starts the payment provider stand-in in this process, listening
 * with @hono/node-server: GiftGenius's start command does when
 * GIFTGENIUS_PROVIDER_URL is not set, the stand-in's own process
 * (provider-main.ts) does, and tests do.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { createProviderStandIn, type ProviderStandIn } from './provider-stand-in.ts';

/** The stand-in's port when GIFTGENIUS_PROVIDER_PORT is not set. */
export const DEFAULT_PROVIDER_PORT = 3210;

/** The secret key when GIFTGENIUS_PROVIDER_KEY is not set: a test key, public on purpose. */
export const DEFAULT_PROVIDER_KEY = 'sk_test_giftgenius_stand_in';

/** Options of {@link startProviderStandIn}. */
export type StartProviderStandInOptions = {
  /** TCP port; 0 for any free one. */
  port: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** The secret key callers must send as `Authorization: Bearer <key>`. */
  secretKey: string;
  /** Origin to link product pictures and payment pages under, when callers reach the stand-in at another address than the browser does. */
  publicOrigin?: string;
  /** Where the stand-in logs; default silent. */
  logger?: Logger;
  /** The stand-in's clock; default the system clock. */
  now?: () => Date;
};

/** A listening stand-in. */
export type RunningProviderStandIn = {
  /** Its origin without a trailing slash, e.g. `http://127.0.0.1:3210`: the client's `baseUrl`. */
  url: string;
  /** Stops listening and closes every open connection; resolves once the server has closed. */
  close(): Promise<void>;
  /** The stand-in itself (its app, reset, switches). */
  standIn: ProviderStandIn;
};

/**
 * Starts a payment provider stand-in listening on `host:port` with
 * @hono/node-server, in this process.
 *
 * @returns once it listens: its URL (0.0.0.0 shown as 127.0.0.1, an IPv6 host in brackets) and how to close it.
 * @throws the listen error (EADDRINUSE, EACCES…), nothing left listening; or
 *   createProviderStandIn's Error for a secret key no caller could send.
 */
export async function startProviderStandIn(options: StartProviderStandInOptions): Promise<RunningProviderStandIn> {
  const host = options.host ?? '127.0.0.1';
  const standIn = createProviderStandIn({
    secretKey: options.secretKey,
    ...(options.publicOrigin !== undefined && { publicOrigin: options.publicOrigin }),
    ...(options.logger !== undefined && { logger: options.logger }),
    ...(options.now !== undefined && { now: options.now }),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: standIn.app.fetch, hostname: host, port: options.port }, () => resolve(listening));
    listening.once('error', reject);
  });
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${(server.address() as AddressInfo).port}`,
    standIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
