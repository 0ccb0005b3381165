/**
 * @module Runs the payment provider stand-in: as a process of its own
 * (`node --import tsx apps/giftgenius/src/provider/provider-main.ts`), or
 * inside another process through {@link startProviderStandIn} (GiftGenius's
 * start command when GIFTGENIUS_PROVIDER_URL is not set, and tests).
 *
 * Environment of the process: GIFTGENIUS_PROVIDER_PORT (default 3210; 0 for
 * any free port), HOST (default 127.0.0.1), GIFTGENIUS_PROVIDER_KEY (the
 * secret key callers must send; default `sk_test_giftgenius_stand_in`).
 * Logs with pino to stdout; on SIGTERM or SIGINT it stops listening, closes
 * open connections and exits 0. Its state lives in memory: every start
 * begins from the catalog.
 */
import { realpathSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { pino, type Logger } from 'pino';
import { wholeNumberSetting } from 'agentready/settings';
import { createProviderStandIn, SECRET_KEY_PATTERN, type ProviderStandIn } from './provider-stand-in.ts';

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

/** Whether this module is the process's entry (`node … provider-main.ts`), not imported by another. */
function isProcessEntry(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

/** The process: reads its environment, listens, and stops cleanly on SIGTERM or SIGINT. */
async function runProviderProcess(): Promise<void> {
  const logger = pino({ name: 'giftgenius-provider-stand-in' });
  const port = wholeNumberSetting(logger, 'GIFTGENIUS_PROVIDER_PORT', { fallback: DEFAULT_PROVIDER_PORT, min: 0, max: 65_535 });
  const host = process.env.HOST || '127.0.0.1';
  const secretKey = process.env.GIFTGENIUS_PROVIDER_KEY || DEFAULT_PROVIDER_KEY;
  if (!SECRET_KEY_PATTERN.test(secretKey)) {
    logger.fatal('GIFTGENIUS_PROVIDER_KEY must be letters, digits and . _ ~ + / - only (a bearer token), such as sk_test_giftgenius_stand_in');
    process.exit(2);
  }
  let running: RunningProviderStandIn;
  try {
    running = await startProviderStandIn({ port, host, secretKey, logger });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${port} is already in use; set GIFTGENIUS_PROVIDER_PORT to another one` : (error as Error).message;
    logger.fatal({ host, port, code }, `the payment provider stand-in could not listen: ${reason}`);
    process.exit(1);
  }
  logger.info({ url: running.url, defaultKey: secretKey === DEFAULT_PROVIDER_KEY }, 'the payment provider stand-in is listening (state in memory)');
  const shutDown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'the payment provider stand-in is stopping');
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
}

if (isProcessEntry()) await runProviderProcess();
