/**
 * What a site's processes read from their environment (agentready/settings),
 * as an operator sets it: SITE_URL, SHUTDOWN_GRACE_MS, ALLOWED_HOSTS, DEMO_ACCOUNTS,
 * and whole-number settings such as PORT.
 */
import { describe, expect, it } from 'vitest';
import { readAllowedHostnames, readShutdownGraceMs, readSiteUrl, readWholeNumber, wantsDemoAccounts } from '../src/settings/index.ts';

describe('SITE_URL', () => {
  it('takes an origin, with or without its slash, and refuses a path, a query or another scheme', () => {
    expect(readSiteUrl('https://data.example.org/')).toEqual({ ok: true, siteUrl: 'https://data.example.org' });
    expect(readSiteUrl('')).toEqual({ ok: true, siteUrl: undefined });
    for (const value of ['https://data.example.org/app', 'https://data.example.org/?x=1', 'ftp://data.example.org', 'data.example.org']) {
      expect(readSiteUrl(value), value).toMatchObject({ ok: false });
    }
  });
});

describe('SHUTDOWN_GRACE_MS', () => {
  it('defaults to 5000 and refuses what is not a whole number of milliseconds', () => {
    expect(readShutdownGraceMs(undefined)).toEqual({ ok: true, graceMs: 5000 });
    expect(readShutdownGraceMs('0')).toEqual({ ok: true, graceMs: 0 });
    for (const value of ['-1', '1.5', 'soon']) expect(readShutdownGraceMs(value), value).toMatchObject({ ok: false });
  });
});

describe('ALLOWED_HOSTS', () => {
  it("adds the site URL's host and the listed names, lower-cased, once each, to the loopback names", () => {
    expect(readAllowedHostnames('https://Data.Example.org', ' Intranet.Local, ,data.example.org ')).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      'data.example.org',
      'intranet.local',
    ]);
    expect(readAllowedHostnames(undefined, undefined)).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });
});

describe('DEMO_ACCOUNTS', () => {
  it('creates the demo accounts only for a site run for local use, unless told otherwise', () => {
    expect(wantsDemoAccounts(undefined, undefined)).toBe(true);
    expect(wantsDemoAccounts(undefined, 'https://data.example.org')).toBe(false);
    expect(wantsDemoAccounts('on', 'https://data.example.org')).toBe(true);
    expect(wantsDemoAccounts('off', undefined)).toBe(false);
  });
});

describe('whole-number settings (PORT, TOOL_CALLS_PER_MINUTE, …)', () => {
  it('takes the default when unset or empty, and a whole number within the range', () => {
    const port = { fallback: 3200, min: 0, max: 65_535 };
    expect(readWholeNumber('PORT', undefined, port)).toEqual({ ok: true, value: 3200 });
    expect(readWholeNumber('PORT', '', port)).toEqual({ ok: true, value: 3200 });
    expect(readWholeNumber('PORT', '0', port)).toEqual({ ok: true, value: 0 });
    expect(readWholeNumber('PORT', '65535', port)).toEqual({ ok: true, value: 65_535 });
  });

  it('refuses a value out of range or not a whole number with one sentence naming the setting and the range', () => {
    for (const value of ['65536', '-1', '80.5', 'eighty', '1e400']) {
      expect(readWholeNumber('PORT', value, { fallback: 3200, min: 0, max: 65_535 }), value).toEqual({
        ok: false,
        problem: 'PORT must be a whole number from 0 to 65535.',
      });
    }
    expect(readWholeNumber('IDEMPOTENCY_LEASE_SECONDS', '0', { fallback: 30, min: 1 })).toEqual({
      ok: false,
      problem: 'IDEMPOTENCY_LEASE_SECONDS must be a whole number, at least 1.',
    });
    expect(readWholeNumber('TOOL_CALLS_PER_MINUTE', String(2 ** 53), { fallback: 120, min: 0 })).toMatchObject({ ok: false });
  });
});
