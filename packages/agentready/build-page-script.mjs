/**
 * @module Builds the script a site made with `createAgentSite` serves to its
 * pages (src/webmcp/site-page-script.ts and what it imports) into one
 * browser file, dist/browser/agentready-webmcp.js, with Vite. Run by
 * `npm run pack`, and before the tests that load it.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Where the built script is written. */
export const PAGE_SCRIPT = fileURLToPath(new URL('./dist/browser/agentready-webmcp.js', import.meta.url));

/** Builds the page script; resolves when dist/browser/agentready-webmcp.js is written. */
export async function buildPageScript() {
  await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    resolve: { conditions: ['agentready-source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir: fileURLToPath(new URL('./dist/browser', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      lib: { entry: fileURLToPath(new URL('./src/webmcp/site-page-script.ts', import.meta.url)), formats: ['es'], fileName: () => 'agentready-webmcp.js' },
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageScript();
