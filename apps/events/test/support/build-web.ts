/**
 * @module
 * vitest globalSetup: builds the site for people (apps/events/dist/web) once
 * per test run, so every browser test serves the same fresh bundle.
 */
import { fileURLToPath } from 'node:url';
import { buildForProduction } from '@agentready/testing';

/** The Vite config of the events site. */
export const EVENTS_VITE_CONFIG = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

/**
 * Runs `vite build` with apps/events/vite.config.ts (output: apps/events/dist/web).
 *
 * @throws the build's error, which fails the run before any test starts.
 */
export default async function buildEventsWeb(): Promise<void> {
  await buildForProduction(EVENTS_VITE_CONFIG);
}
