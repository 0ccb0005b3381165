/**
 * @module
 * Builds the widget (the MCP Apps view, src/widget/gift-finder.html and what
 * it imports) into ONE self-contained file, dist/widget/gift-finder.html:
 * every script and stylesheet inlined (vite-plugin-singlefile), so the
 * server serves it as the `ui://giftgenius/gift-finder-v1.html` resource and
 * the host's CSP needs no origin for it ('unsafe-inline' only).
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITION } from '../../scripts/workspace-sources.mjs';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  // The toolkit's packages are bundled from their sources in this repository.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  root: fileURLToPath(new URL('./src/widget', import.meta.url)),
  publicDir: false,
  plugins: [viteSingleFile({ removeViteModuleLoader: true })],
  // JSX is Preact's (automatic runtime), as in tsconfig.json.
  // Never the development form (each element's absolute source path and line), whatever NODE_ENV says: people get this build.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: fileURLToPath(new URL('./dist/widget', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: { input: fileURLToPath(new URL('./src/widget/gift-finder.html', import.meta.url)) },
  },
});
