/**
 * @module
 * `@agentready/testing`: what scenario tests need to drive an AgentReady app.
 */
export { launchWebMcpChromium, DEFAULT_CHROMIUM_PATH, WEBMCP_CHROMIUM_ARGS } from './chromium.ts';
export type { LaunchWebMcpChromiumOptions } from './chromium.ts';
export { checkCatalogConformance } from './catalog-conformance.ts';
export type { ConformanceOptions } from './catalog-conformance.ts';
export { createTestSchemaDatabase, withTestSchemaLock } from './postgres-schema-lock.ts';
export type { TestSchemaDatabase } from './postgres-schema-lock.ts';
export { openMigratedTestDatabase } from './migrated-test-database.ts';
export type { MigratedTestDatabase, OpenMigratedTestDatabaseOptions } from './migrated-test-database.ts';
export { requirePostgresForTests, SKIP_POSTGRES_VARIABLE } from './postgres-requirement.ts';
export type { PostgresRequirementOptions } from './postgres-requirement.ts';
export { findLayerViolations } from './layer-imports.ts';
export type { LayerRule, LayerViolation } from './layer-imports.ts';
export { listenForRedirect, memoryClientProvider, TEST_CLIENT_NAME } from './oauth-test-client.ts';
export type { RedirectListener, SavedOAuthState } from './oauth-test-client.ts';
export { FormBrowser } from './form-browser.ts';
export type { FormBrowserAnswer, FormBrowserLanding } from './form-browser.ts';
export { listenOnLoopback } from './loopback-listener.ts';
export type { LoopbackListener } from './loopback-listener.ts';
export { startSiteProcess, holdPostgresLock, pollUntil, waitForLockWaiters } from './site-processes.ts';
export type { SiteProcess, StartSiteProcessOptions, HeldLock } from './site-processes.ts';
export { runNodeCommand } from './command-runs.ts';
export type { CommandRun } from './command-runs.ts';
export { findAccessibilityViolations } from './accessibility-audit.ts';
export type { AccessibilityViolation } from './accessibility-audit.ts';
export { buildForProduction } from './production-build.ts';
export { deeplyNestedArguments, flatArguments, toolCallMessage, timedAnswer } from './nested-bodies.ts';
export { wordsBrokenInTables } from './table-words.ts';
export { BrowserBehindTlsProxy } from './behind-tls-proxy.ts';
export type { BrowserLanding } from './behind-tls-proxy.ts';
