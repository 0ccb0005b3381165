/**
 * @module agentready/settings: what a site's processes read from their environment the same way (server only).
 */
export {
  readSiteUrl,
  readShutdownGraceMs,
  readAllowedHostnames,
  wantsDemoAccounts,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_AUDIT_RETENTION_DAYS,
  AUDIT_RETENTION_DAYS_RANGE,
} from './process-settings.ts';
export type { SiteUrlSetting, ShutdownGraceSetting } from './process-settings.ts';
export { readWholeNumber, refuseSetting, wholeNumberSetting } from './whole-number-settings.ts';
export type { WholeNumberSetting, WholeNumberRange, SettingRefusalLog } from './whole-number-settings.ts';
