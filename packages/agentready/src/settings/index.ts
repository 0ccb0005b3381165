/**
 * @module agentready/settings: what a site's processes read from their
 * environment the same way (`SITE_URL`, `PORT`, `SHUTDOWN_GRACE_MS`,
 * `AUDIT_RETENTION_DAYS`, `DEMO_ACCOUNTS`), each refused in one line with exit
 * code 2 when it does not fit (server only).
 */
export {
  readSiteUrl,
  readShutdownGraceMs,
  readAllowedHostnames,
  wantsDemoAccounts,
  DEFAULT_AUDIT_RETENTION_DAYS,
  AUDIT_RETENTION_DAYS_RANGE,
} from './process-settings.ts';
export { readWholeNumber, refuseSetting, wholeNumberSetting } from './whole-number-settings.ts';
