/**
 * @module Signing a Chromium browser in for tests that start where a signed-in
 * person already is: a new account is signed up over HTTP (as the sign-up
 * form does) and its session cookie is given to the browser context, so every
 * page the test opens is the signed-in person's.
 */
import type { BrowserContext } from 'playwright-core';
import { openSitePerson, type SitePerson } from './site-person.ts';

/**
 * Signs up a new account on the site at `siteUrl` and gives `context` its
 * session cookie (HttpOnly, SameSite=Lax, for the site's origin).
 *
 * @returns the person, whose `call` uses the same session as the browser.
 * @throws when the sign-up fails (see {@link openSitePerson}).
 */
export async function signUpInBrowser(context: BrowserContext, siteUrl: string): Promise<SitePerson> {
  const person = await openSitePerson(siteUrl);
  const separator = person.cookie.indexOf('=');
  const [name, value] = [person.cookie.slice(0, separator), person.cookie.slice(separator + 1)];
  await context.addCookies([{ name, value, url: siteUrl, httpOnly: true, sameSite: 'Lax' }]);
  return person;
}
