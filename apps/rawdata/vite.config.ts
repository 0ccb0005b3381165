/**
 * @module
 * Builds the request form's enhancement script (src/web/request-form-script.ts)
 * into dist/web/assets/request-form.js. The server renders every page itself
 * and serves that one file at /assets/request-form.js; the pages work without it.
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITION } from '../../scripts/workspace-sources.mjs';

export default defineConfig({
  // The toolkit's packages are bundled from their sources in this repository.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // Not served from a page Vite builds: the file name stays fixed for the server's <script> tag.
    rolldownOptions: {
      input: { 'request-form': fileURLToPath(new URL('./src/web/request-form-script.ts', import.meta.url)) },
      output: { entryFileNames: 'assets/[name].js', format: 'es' },
    },
  },
});
