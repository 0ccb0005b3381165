/**
 * @module Builds the test host's page (widget-host/host-page.html and
 * host-page.ts, with ext-apps' AppBridge) into one self-contained file,
 * apps/giftgenius/dist/widget-host/host-page.html, which the driver serves.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

/** The built host page. */
export const HOST_PAGE_FILE = fileURLToPath(new URL('../../../dist/widget-host/host-page.html', import.meta.url));

/**
 * Runs `vite build` on the host page (output: {@link HOST_PAGE_FILE}).
 *
 * @throws the build's error.
 */
export async function buildWidgetHostPage(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    root: fileURLToPath(new URL('.', import.meta.url)),
    publicDir: false,
    plugins: [viteSingleFile({ removeViteModuleLoader: true })],
    build: {
      outDir: fileURLToPath(new URL('../../../dist/widget-host', import.meta.url)),
      emptyOutDir: true,
      rolldownOptions: { input: fileURLToPath(new URL('./host-page.html', import.meta.url)) },
    },
  });
}
