/**
 * @module Serves the built web client (`apps/events/dist/web`, from `npm run
 * build:web`): its files, and `index.html` for every page route so the
 * client-side router can take over (single-page app fallback).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { EventsEnv } from './events-env.ts';

/** Where `vite build` writes the client. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** The page routes answered with `index.html`. */
const PAGE_ROUTES = ['/', '/events', '/events/:id', '/events/:id/register', '/registrations', '/saved', '/connect'] as const;

/**
 * Mounts the client on `app`; call after the API routes. When `webRoot` does
 * not exist (client not built), page routes answer 503 with the command that
 * builds it, and a warning is logged once.
 */
export function mountWebClient(app: Hono<EventsEnv>, webRoot: string, logger: Logger): void {
  if (!existsSync(join(webRoot, 'index.html'))) {
    logger.warn({ webRoot }, 'web client not built; page routes answer 503');
    for (const route of PAGE_ROUTES) {
      app.get(route, function clientNotBuilt(c) {
        return c.text('The web client is not built. Run: npm run build:web -w apps/events', 503);
      });
    }
    return;
  }
  const indexPage = serveStatic({ path: join(webRoot, 'index.html') });
  for (const route of PAGE_ROUTES) app.get(route, indexPage);
  app.use('*', serveStatic({ root: webRoot }));
}
