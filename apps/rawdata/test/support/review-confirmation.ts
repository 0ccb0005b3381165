/**
 * @module The person's part of a journey, over HTTP as a browser without
 * its script: open the review page a draft's confirmationUrl names, tick the
 * sensitive-data confirmation when it is asked for, Confirm, and read the
 * confirmation code the page shows once, for the version it names.
 */
import type { SitePerson } from './site-person.ts';

/** What the person reads off the page after Confirm: the code and the version it confirms. */
export type ConfirmationCode = { code: string; version: number };

/**
 * Opens `/drafts/:id/review`, confirms `version` (ticking the sensitive-data box when `tick`).
 *
 * @throws Error with the page's problem when the site does not mint a code.
 */
export async function confirmOnReviewPage(person: SitePerson, draftId: string, version: number, tick = true): Promise<ConfirmationCode> {
  const review = await person.get(`/drafts/${draftId}/review`);
  if (review.status !== 200) throw new Error(`The review page answered ${review.status}`);
  const sensitive = review.page.querySelector('input[name=sensitive_data_confirmed]') !== null;
  const confirmed = await person.post(`/drafts/${draftId}/confirm`, { draft_version: String(version), ...(tick && sensitive && { sensitive_data_confirmed: 'on' }) });
  const code = confirmed.page.querySelector('[data-testid=confirmation-code]')?.text.trim();
  if (confirmed.status !== 200 || !code) throw new Error(`Confirm answered ${confirmed.status}: ${confirmed.page.querySelector('[data-testid=review-problem]')?.text.trim() ?? ''}`);
  return { code, version: Number(confirmed.page.querySelector('[data-testid=confirmed-version]')?.text) };
}
