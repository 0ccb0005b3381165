/**
 * @module Starts the local chat host: `npm run giftgenius:host`, beside a
 * running GiftGenius (`npm run giftgenius`).
 *
 * Environment: GIFTGENIUS_URL (default `http://127.0.0.1:3200`), HOST_PORT
 * (default 3220; the host listens on 127.0.0.1 only: it holds one person's
 * tokens).
 */
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createSiteLogger } from 'agentready/runtime';
import { wholeNumberSetting } from 'agentready/settings';
import { CHAT_HOST_LISTENING, createChatHost, type ChatHost } from './chat-host-server.ts';

const logger = createSiteLogger('giftgenius-chat-host');
const port = wholeNumberSetting(logger, 'HOST_PORT', { fallback: 3220, min: 0, max: 65_535 });
const siteUrl = new URL(process.env.GIFTGENIUS_URL || 'http://127.0.0.1:3200').origin;
const pageFile = fileURLToPath(new URL('../../dist/chat-host/chat-host.html', import.meta.url));

let host: ChatHost | undefined;
const server = createServer(getRequestListener((request) => host?.app.fetch(request) ?? new Response(null, { status: 503 })));
server.once('error', (error: NodeJS.ErrnoException) => {
  logger.fatal({ err: error }, error.code === 'EADDRINUSE' ? `port ${port} is in use; set HOST_PORT to another one` : 'the chat host could not listen');
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  // The redirect URI needs the port the host really listens on (HOST_PORT=0 picks a free one).
  const hostUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host = createChatHost({ siteUrl, hostUrl, pageFile, logger });
  logger.info({ url: hostUrl, giftgenius: siteUrl }, CHAT_HOST_LISTENING);
  const stop = () => void host?.close().finally(() => server.close(() => process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
