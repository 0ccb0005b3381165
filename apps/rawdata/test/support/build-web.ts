/**
 * @module
 * vitest globalSetup: builds the Rawdata request form's script
 * (apps/rawdata/dist/web) once per test run, so browser tests load the same
 * fresh bundle the server serves.
 */
import { fileURLToPath } from 'node:url';
import { buildForProduction } from '@agentready/testing';

/** The Vite config of the Rawdata site's script. */
export const RAWDATA_VITE_CONFIG = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

/**
 * Runs `vite build` with apps/rawdata/vite.config.ts (output: apps/rawdata/dist/web).
 *
 * @throws the build's error, which fails the run before any test starts.
 */
export default async function buildRawdataWeb(): Promise<void> {
  await buildForProduction(RAWDATA_VITE_CONFIG);
}
