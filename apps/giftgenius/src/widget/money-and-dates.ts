/**
 * @module Prices and dates as the person reads them, in the host's locale
 * (Intl). No DOM here.
 */
import type { CurrencyCode, Money } from './widget-contract.ts';

/** Minor units per major unit, from ISO 4217's exponent (two decimals for each currency GiftGenius sells in). */
const MINOR_UNIT_EXPONENT: Record<CurrencyCode, number> = { USD: 2, EUR: 2, TWD: 2 };

/**
 * A price as text, e.g. `$24.99` or `NT$1,290.00`.
 *
 * @param money whole minor units and an ISO 4217 code.
 * @param locale BCP 47 tag (the host's `locale`); undefined = the browser's.
 */
export function formatMoney(money: Money, locale: string | undefined): string {
  const exponent = MINOR_UNIT_EXPONENT[money.currency] ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(money.amountMinor / 10 ** exponent);
}

/**
 * A delivery window as text, e.g. `Mar 3 – Mar 6, 2026`.
 *
 * @param window calendar dates `YYYY-MM-DD` (read as dates, with no time zone shift).
 * @param locale BCP 47 tag; undefined = the browser's.
 */
export function formatDeliveryWindow(window: { earliest: string; latest: string }, locale: string | undefined): string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const earliest = new Date(`${window.earliest}T00:00:00Z`);
  const latest = new Date(`${window.latest}T00:00:00Z`);
  if (Number.isNaN(earliest.getTime()) || Number.isNaN(latest.getTime())) return `${window.earliest} – ${window.latest}`;
  return window.earliest === window.latest ? format.format(earliest) : format.formatRange(earliest, latest);
}

/**
 * A moment as text in the person's time zone, e.g. `Mar 3, 2026, 2:05 PM`.
 *
 * @param iso ISO 8601 with offset; returned unchanged when it is not a date.
 */
export function formatMoment(iso: string, locale: string | undefined, timeZone: string | undefined): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(moment);
}
