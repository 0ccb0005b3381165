/**
 * @module vitest globalSetup: builds the page script a `createAgentSite`
 * site serves (packages/agentready/dist/browser/agentready-webmcp.js) once
 * per test run, as `npm run pack` does for the published package.
 */
import { buildPageScript } from '../../build-page-script.mjs';

/** Builds the page script; a failure fails the run before any test starts. */
export default async function buildSitePageScript(): Promise<void> {
  await buildPageScript();
}
