/**
 * @module
 * Builds the site's server for production (scripts/site-server-build.mjs):
 * src/server/main.ts and what it imports from this repository, into
 * dist/server/main.js, which `npm start` runs with node after the build.
 */
import { defineConfig } from 'vite';
import { siteServerConfig } from '../../scripts/site-server-build.mjs';

export default defineConfig(siteServerConfig(new URL('.', import.meta.url)));
