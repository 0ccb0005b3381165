/**
 * @module What GiftGenius knows of a gift: the payment provider's product as
 * the domain reads it (the provider's catalog is the shop's catalog), the
 * currencies it is priced in, and money as whole minor units.
 */

/** The currencies every gift is priced in, as ISO 4217 codes. */
export const CURRENCIES = ['USD', 'EUR', 'TWD'] as const;

/** One of {@link CURRENCIES}. */
export type Currency = (typeof CURRENCIES)[number];

/** An amount of money: whole minor units (cents) of `currency`. */
export type Money = { amountMinor: number; currency: Currency };

/** A gift as the provider's catalog lists it. `active: false` means discontinued. */
export type GiftProduct = {
  id: string;
  name: string;
  /** Written by the shop's copywriters: third-party text to an agent. */
  description: string;
  active: boolean;
  imageUrl: string | null;
  tags: string[];
  /** Ages the gift suits, in whole years, both ends included. */
  ageRange: { min: number; max: number };
  /** Price per unit in minor units of each currency. */
  prices: Record<Currency, number>;
  /** Units the shop can sell now. */
  stock: number;
  /** Working days from order to delivery, both ends included. */
  deliveryDays: { min: number; max: number };
};

/** Major units (what a person types: 49.99) to whole minor units (4999), rounded to the nearest cent. */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * 100);
}

/**
 * `money` as a person reads it in English (`$49.99`, `€45.99`, `NT$1,590`):
 * Intl.NumberFormat with the currency's usual fraction digits, dropped when
 * the amount is whole for TWD.
 */
export function formatMoney(money: Money): string {
  const major = money.amountMinor / 100;
  const whole = money.currency === 'TWD' && Number.isInteger(major);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: money.currency,
    ...(whole && { minimumFractionDigits: 0, maximumFractionDigits: 0 }),
  }).format(major);
}
