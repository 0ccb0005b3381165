/**
 * @module
 * Builds the local chat host's page (src/chat-host/page/chat-host.html, its
 * script with ext-apps' AppBridge, and its stylesheet) into ONE file,
 * dist/chat-host/chat-host.html, which `npm run giftgenius:host` serves.
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { SOURCE_CONDITION } from '../../scripts/workspace-sources.mjs';

export default defineConfig({
  // The toolkit's packages are bundled from their sources in this repository.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  root: fileURLToPath(new URL('./src/chat-host/page', import.meta.url)),
  publicDir: false,
  plugins: [viteSingleFile({ removeViteModuleLoader: true })],
  build: {
    outDir: fileURLToPath(new URL('./dist/chat-host', import.meta.url)),
    emptyOutDir: true,
    // The page's script waits at top level for the host's state.
    target: 'es2022',
    rolldownOptions: { input: fileURLToPath(new URL('./src/chat-host/page/chat-host.html', import.meta.url)) },
  },
});
