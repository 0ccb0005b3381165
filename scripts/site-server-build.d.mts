import type { UserConfig } from 'vite';

/** The Vite config that builds the server of the app in `appFolder` (a file URL ending in `/`) into its `dist/server/main.js`. */
export function siteServerConfig(appFolder: URL): UserConfig;

/** The packages Node loads from node_modules at run time rather than from the bundle. */
export const LOADED_FROM_NODE_MODULES: string[];
