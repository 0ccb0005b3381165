/**
 * @module How an app's server is built for production: `vite build --config
 * vite.server.config.ts` bundles its `src/server/main.ts`, with the
 * workspace's packages taken from their sources, into one JavaScript module,
 * `dist/server/main.js`, that `node` runs without tsx. The packages it
 * uses from node_modules are bundled too (Node then resolves and reads one
 * file, not hundreds, at start), except those in {@link LOADED_FROM_NODE_MODULES}.
 */
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { SOURCE_CONDITION } from './workspace-sources.mjs';

/**
 * The packages Node loads from node_modules at run time rather than from the
 * bundle: native addons, code that starts workers from its own files or reads
 * its own files, and what is loaded only when a setting asks for it.
 */
export const LOADED_FROM_NODE_MODULES = [
  // Native addons.
  'better-sqlite3',
  '@node-rs/argon2',
  // Its optional native binding (pg-native) is looked up at run time.
  'pg',
  // Log transports run in worker threads started from the packages' own files.
  'pino',
  'pino-pretty',
  // The OAuth server (on koa) reads its own files and is large; loaded as published.
  'oidc-provider',
  // Loaded only when REDIS_URL is set.
  'ioredis',
];

/**
 * The Vite config that builds the server of the app in the folder `appFolder`
 * (a file URL ending in `/`, such as `new URL('.', import.meta.url)` in the
 * app's config): entry `src/server/main.ts`, output `dist/server/main.js`
 * (the folder is emptied first), Preact's JSX, Node 20's JavaScript, not
 * minified (stack traces in the log keep their names).
 *
 * The output sits as deep under the app as `src/server/` does, so a path
 * the sources resolve against `import.meta.url` with `../../` (the app's
 * folder) means the same folder from the build.
 *
 * @param {URL} appFolder
 * @returns {import('vite').UserConfig}
 */
export function siteServerConfig(appFolder) {
  const conditions = [SOURCE_CONDITION, ...defaultServerConditions];
  return {
    configFile: false,
    root: fileURLToPath(appFolder),
    publicDir: false,
    logLevel: 'warn',
    resolve: { conditions },
    ssr: { resolve: { conditions }, noExternal: true, external: LOADED_FROM_NODE_MODULES },
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
    build: {
      ssr: fileURLToPath(new URL('src/server/main.ts', appFolder)),
      outDir: fileURLToPath(new URL('dist/server', appFolder)),
      emptyOutDir: true,
      target: 'node20',
      minify: false,
    },
  };
}
