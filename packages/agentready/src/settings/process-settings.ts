/**
 * @module Settings a site's processes read from their environment the same
 * way (the web server and the stdio MCP server alike): the site's public
 * address (SITE_URL), the shutdown grace period (SHUTDOWN_GRACE_MS) and how
 * long audit records are kept (AUDIT_RETENTION_DAYS).
 * Each answer is the value or the problem in one sentence for the operator.
 */
import type { WholeNumberRange } from './whole-number-settings.ts';

/** {@link readSiteUrl}'s answer: the origin (or none given), or why the value is refused. */
export type SiteUrlSetting = { ok: true; siteUrl: string | undefined } | { ok: false; problem: string };

/**
 * Reads SITE_URL, the site's public address, where the person opens the links
 * an agent hands over (`confirmationUrl`, /connect): empty or unset means
 * none; otherwise an `http:` or `https:` origin, optionally with a trailing
 * slash. A path, query or fragment is refused rather than dropped, because
 * the site's pages live at its root.
 *
 * @returns the origin without a trailing slash (`https://events.example.org`), or the problem in one sentence.
 */
export function readSiteUrl(value: string | undefined): SiteUrlSetting {
  if (value === undefined || value.trim() === '') return { ok: true, siteUrl: undefined };
  const example = 'such as https://app.example.org or http://127.0.0.1:3000';
  if (!URL.canParse(value)) return { ok: false, problem: `SITE_URL must be an absolute URL, ${example}.` };
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: `SITE_URL must start with http:// or https://, ${example}.` };
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return { ok: false, problem: `SITE_URL must be the site's origin only, without a path, query or credentials, ${example}.` };
  }
  return { ok: true, siteUrl: url.origin };
}

/** How long calls in flight may take to finish once the process is told to stop, in milliseconds, when SHUTDOWN_GRACE_MS is not set. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** {@link readShutdownGraceMs}'s answer: the grace period in milliseconds, or why the value is refused. */
export type ShutdownGraceSetting = { ok: true; graceMs: number } | { ok: false; problem: string };

/**
 * Reads SHUTDOWN_GRACE_MS: empty or unset means {@link DEFAULT_SHUTDOWN_GRACE_MS};
 * otherwise a whole number of milliseconds, 0 or more.
 *
 * @returns the milliseconds, or the problem in one sentence.
 */
export function readShutdownGraceMs(value: string | undefined): ShutdownGraceSetting {
  const graceMs = Number(value || DEFAULT_SHUTDOWN_GRACE_MS);
  if (!Number.isInteger(graceMs) || graceMs < 0) return { ok: false, problem: 'SHUTDOWN_GRACE_MS must be a whole number of milliseconds, 0 or more.' };
  return { ok: true, graceMs };
}

/**
 * The host names `/mcp` answers (its `Host` allowlist against DNS rebinding):
 * localhost, 127.0.0.1 and [::1], SITE_URL's host, and ALLOWED_HOSTS
 * (comma-separated names, any case, blanks ignored), each once.
 *
 * @param siteUrl the site's origin as {@link readSiteUrl} answered it.
 * @param allowedHosts ALLOWED_HOSTS as set, or undefined.
 */
export function readAllowedHostnames(siteUrl: string | undefined, allowedHosts: string | undefined): string[] {
  const named = (allowedHosts ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(['localhost', '127.0.0.1', '[::1]', ...(siteUrl !== undefined ? [new URL(siteUrl).hostname] : []), ...named])];
}

/**
 * Whether to create the demo accounts, whose passwords are public: DEMO_ACCOUNTS
 * `on` or `off` decides; otherwise only on a site run for local use (no SITE_URL).
 */
export function wantsDemoAccounts(demoAccounts: string | undefined, siteUrl: string | undefined): boolean {
  return demoAccounts === 'on' || (demoAccounts !== 'off' && siteUrl === undefined);
}

/** How many days audit records are kept when AUDIT_RETENTION_DAYS is not set. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

/**
 * AUDIT_RETENTION_DAYS, how many whole days a site keeps each call's audit
 * record before its sweep deletes it (agentready/runtime, `sweepAuditRecords`):
 * {@link DEFAULT_AUDIT_RETENTION_DAYS} when unset or empty, otherwise from 1
 * to 36,500 (a hundred years, for a site that must keep evidence "for good").
 * Read it with `wholeNumberSetting(log, 'AUDIT_RETENTION_DAYS', AUDIT_RETENTION_DAYS_RANGE)`
 * at start-up, which refuses any other value (exit code 2: "AUDIT_RETENTION_DAYS
 * must be a whole number from 1 to 36500.").
 */
export const AUDIT_RETENTION_DAYS_RANGE: WholeNumberRange = { fallback: DEFAULT_AUDIT_RETENTION_DAYS, min: 1, max: 36_500 };
