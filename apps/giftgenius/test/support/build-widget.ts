/**
 * @module
 * vitest globalSetup: builds the GiftGenius widget
 * (apps/giftgenius/dist/widget/gift-finder.html) and the widget tests' host
 * page (apps/giftgenius/dist/widget-host/host-page.html) once per test run,
 * so the server serves, and the browser tests load, the fresh bundle; and the
 * local chat host's page (apps/giftgenius/dist/chat-host/chat-host.html).
 */
import { fileURLToPath } from 'node:url';
import { buildForProduction } from '@agentready/testing';
import { buildWidgetHostPage } from './widget-host/build-host-page.ts';

/** The Vite config of the widget. */
export const GIFTGENIUS_WIDGET_VITE_CONFIG = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

/** The built widget: one HTML file with every script and stylesheet inline. */
export const GIFTGENIUS_WIDGET_FILE = fileURLToPath(new URL('../../dist/widget/gift-finder.html', import.meta.url));

/** The Vite config of the local chat host's page (`npm run giftgenius:host`). */
export const GIFTGENIUS_CHAT_HOST_VITE_CONFIG = fileURLToPath(new URL('../../chat-host.vite.config.ts', import.meta.url));

/**
 * Runs `vite build` with apps/giftgenius/vite.config.ts, then builds the test host page and the chat host's page.
 *
 * @throws the build's error, which fails the run before any test starts.
 */
export default async function buildGiftGeniusWidget(): Promise<void> {
  await buildForProduction(GIFTGENIUS_WIDGET_VITE_CONFIG);
  await buildWidgetHostPage();
  await buildForProduction(GIFTGENIUS_CHAT_HOST_VITE_CONFIG);
}
