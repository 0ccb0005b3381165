/**
 * How dates read on the pages: in the event's own offset, never the viewer's
 * zone, written the same by the server (Node) and the browser (Chromium),
 * which hydrates the server's markup. The text is the one the site showed
 * when it formatted with luxon (`ccc d LLL yyyy, HH:mm (ZZ)`), which the
 * server still uses for its own dates: every instant the server writes is
 * compared with it.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { Browser } from 'playwright-core';
import { launchWebMcpChromium } from '@agentready/testing';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateRange, formatDateTime } from '../src/web/event-format.ts';

const EVENT_FORMAT_MODULE = new URL('../src/web/event-format.ts', import.meta.url).pathname;

/** The site's earlier formatting, luxon's reading of ISO 8601 in the offset it carries. */
function luxonDateTime(iso: string): string {
  const time = DateTime.fromISO(iso, { setZone: true, zone: 'utc', locale: 'en-US' });
  return time.isValid ? time.toFormat('ccc d LLL yyyy, HH:mm (ZZ)') : iso;
}

function luxonDateRange(startsAt: string, endsAt: string): string {
  const start = DateTime.fromISO(startsAt, { setZone: true, zone: 'utc', locale: 'en-US' });
  const end = DateTime.fromISO(endsAt, { setZone: true, zone: 'utc', locale: 'en-US' });
  if (start.isValid && end.isValid && start.offset === end.offset && start.hasSame(end, 'day')) {
    return `${start.toFormat('ccc d LLL yyyy, HH:mm')}–${end.toFormat('HH:mm (ZZ)')}`;
  }
  return `${luxonDateTime(startsAt)} – ${luxonDateTime(endsAt)}`;
}

const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));

/**
 * Instants as the server and its seeds write them: a date, a time with or
 * without seconds and a fraction, an offset or none. Years from 1000: luxon,
 * the oracle here, names some weekdays of the first centuries wrongly (it
 * calls 29 Feb 0000 a Wednesday; the proleptic Gregorian calendar, as Intl
 * reads it, makes it a Tuesday), and no event is dated then.
 */
const serverInstant = fc
  .tuple(
    fc.integer({ min: 1000, max: 9999 }).map((year) => String(year).padStart(4, '0')),
    fc.integer({ min: 1, max: 12 }).map((month) => String(month).padStart(2, '0')),
    fc.integer({ min: 1, max: 31 }).map((day) => String(day).padStart(2, '0')),
    fc.option(fc.tuple(twoDigits(23), twoDigits(59), fc.option(fc.tuple(twoDigits(59), fc.option(fc.stringMatching(/^\.\d{1,9}$/)))))),
    fc.constantFrom('', 'Z', '+08:00', '-05:00', '+05:45', '-00:00', '+14:00', '-12:00', '+0930', '+09', '-03:30'),
  )
  .map(([year, month, day, time, offset]) => {
    if (time === null) return `${year}-${month}-${day}`;
    const [hour, minute, seconds] = time;
    const clock = seconds === null ? `${hour}:${minute}` : `${hour}:${minute}:${seconds[0]}${seconds[1] ?? ''}`;
    return `${year}-${month}-${day}T${clock}${offset}`;
  });

describe('formatDateTime and formatDateRange', () => {
  it("write an event's start and end in its own offset, one date when both fall on the same day there", () => {
    expect(formatDateRange('2027-01-23T10:00:00+08:00', '2027-01-23T12:00:00+08:00')).toBe('Sat 23 Jan 2027, 10:00–12:00 (+08:00)');
    expect(formatDateTime('2027-01-23T10:00:00+08:00')).toBe('Sat 23 Jan 2027, 10:00 (+08:00)');
    expect(formatDateTime('2027-09-03T19:30:00-05:30')).toBe('Fri 3 Sep 2027, 19:30 (-05:30)');
  });

  it('write both dates for an event across midnight, or whose start and end carry different offsets', () => {
    expect(formatDateRange('2027-01-23T22:00:00+08:00', '2027-01-24T01:00:00+08:00')).toBe('Sat 23 Jan 2027, 22:00 (+08:00) – Sun 24 Jan 2027, 01:00 (+08:00)');
    // The same hour of the same instant is another wall time in another offset: both are written as they are.
    expect(formatDateRange('2027-01-23T10:00:00+08:00', '2027-01-23T04:00:00Z')).toBe('Sat 23 Jan 2027, 10:00 (+08:00) – Sat 23 Jan 2027, 04:00 (+00:00)');
  });

  it('read an instant without an offset as UTC, whatever zone the process runs in', () => {
    const zone = process.env['TZ'];
    try {
      for (const tz of ['America/Los_Angeles', 'Asia/Kolkata', 'UTC']) {
        process.env['TZ'] = tz;
        expect(formatDateTime('2027-01-23T23:30')).toBe('Sat 23 Jan 2027, 23:30 (+00:00)');
        expect(formatDateTime('2027-01-23')).toBe('Sat 23 Jan 2027, 00:00 (+00:00)');
      }
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });

  it('return what is not a date, or names a day or time that does not exist, unchanged', () => {
    for (const text of ['', 'soon', 'TBA', '2027-02-29T10:00:00+08:00', '2027-04-31', '2027-01-23T24:00', '2027-01-23 10:00', '2027-01-23T10:00Z ']) {
      expect(formatDateTime(text)).toBe(text);
    }
    expect(formatDateRange('soon', '2027-01-23T12:00:00+08:00')).toBe('soon – Sat 23 Jan 2027, 12:00 (+08:00)');
  });

  it('write every instant the server writes as the site did with luxon', () => {
    fc.assert(
      fc.property(serverInstant, serverInstant, (start, end) => {
        expect(formatDateTime(start)).toBe(luxonDateTime(start));
        expect(formatDateRange(start, end)).toBe(luxonDateRange(start, end));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(serverInstant, (start) => {
        const sameDayEnd = start.replace(/T\d\d:\d\d/, 'T23:59');
        expect(formatDateRange(start, sameDayEnd)).toBe(luxonDateRange(start, sameDayEnd));
      }),
    );
  });
});

describe('in Chromium, in a zone far from the event', () => {
  let browser: Browser;
  let script: string;

  beforeAll(async () => {
    browser = await launchWebMcpChromium();
    // The module as the site's build makes it for the browser, exposed for the test as `eventFormat`.
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      build: { write: false, lib: { entry: EVENT_FORMAT_MODULE, formats: ['iife'], name: 'eventFormat' } },
    });
    const [bundle] = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
    script = bundle?.type === 'chunk' ? bundle.code : '';
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('writes the same text as the server for the same instants', async () => {
    const pairs = fc.sample(fc.tuple(serverInstant, serverInstant), { numRuns: 500, seed: 20270123 });
    pairs.push(['2027-01-23T10:00:00+08:00', '2027-01-23T12:00:00+08:00'], ['2027-01-23T22:00:00+08:00', '2027-01-24T01:00:00+08:00'], ['soon', 'later']);
    const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', locale: 'de-DE' });
    try {
      const page = await context.newPage();
      await page.addScriptTag({ content: script });
      const inBrowser = await page.evaluate((cases) => {
        const format = (globalThis as unknown as { eventFormat: { formatDateRange(a: string, b: string): string; formatDateTime(a: string): string } })
          .eventFormat;
        return cases.map(([start, end]) => [format.formatDateTime(start), format.formatDateRange(start, end)]);
      }, pairs);
      expect(inBrowser).toEqual(pairs.map(([start, end]) => [formatDateTime(start), formatDateRange(start, end)]));
    } finally {
      await context.close();
    }
  });
});
