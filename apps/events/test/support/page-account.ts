/**
 * @module A person in Chromium signing up or in from a page of the site, as
 * the sign-in page will (`GET /api/session`, then the form with its CSRF
 * token), and the page's own `fetch` for API calls with the page's cookies.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_PASSWORD } from './app-visitor.ts';

/** Runs `fetch` in the page (same origin, its cookies), with the CSRF header when given; answers status and JSON. */
export async function pageFetch(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  csrf?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, path, body, csrf }) => {
      const headers: Record<string, string> = {};
      if (csrf !== undefined) headers['X-CSRF-Token'] = csrf;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    { method, path, body, csrf },
  );
}

/** Signs up or in from the page as the sign-in page will: `GET /api/session`, then the form with its CSRF token; answers the new CSRF token. */
export async function signInFromPage(page: Page, action: 'sign-up' | 'sign-in', email: string): Promise<string> {
  const session = await pageFetch(page, 'GET', '/api/session');
  expect(session.status).toBe(200);
  const signedIn = await pageFetch(page, 'POST', `/api/account/${action}`, { email, password: TEST_PASSWORD }, session.body['csrfToken'] as string);
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(action === 'sign-up' ? 201 : 200);
  return signedIn.body['csrfToken'] as string;
}
