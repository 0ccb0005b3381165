/**
 * @module
 * Builds the browser's part of the site for people (src/web/main.tsx and its
 * stylesheet) into dist/web. The server renders every page itself into
 * dist/web/index.html and serves dist/web/assets. The pages' tool contracts
 * (src/web/published-tools.ts) and the topics' display names
 * (src/web/topic-names.ts) are computed here, at build time, and shipped as data.
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITION } from '../../scripts/workspace-sources.mjs';
import { buildTimeModules } from './build/build-time-modules.ts';

export default defineConfig({
  // The toolkit's packages are bundled from their sources in this repository.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: false,
  plugins: [
    buildTimeModules([
      fileURLToPath(new URL('./src/web/published-tools.ts', import.meta.url)),
      fileURLToPath(new URL('./src/web/topic-names.ts', import.meta.url)),
    ]),
  ],
  // JSX is Preact's (automatic runtime), as in tsconfig.json.
  // Never the development form (each element's absolute source path and line), whatever NODE_ENV says: people get this build.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The shared script is one file: the entry and everything it imports statically, which every page loads
    // (rather than Rolldown's own split of what the entry shares with each set of chunks into a file of its own).
    // The pages' and the tools' chunks import from it, so the entry has no top-level await (main.tsx).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shared', tags: ['$initial'] }] } } },
  },
});
