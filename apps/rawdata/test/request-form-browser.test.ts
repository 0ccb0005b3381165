/**
 * The request form in Debian's Chromium with its script: each change asks
 * the server for the linked fields (no page load), so choosing an
 * environment and a database sets the schema, a refresh table hides
 * housekeeping with why, a classified table shows the sensitive-data
 * notice, the search filters the listed tables; Send lands on the review
 * page of version 1. And axe-core (WCAG 2.2 AA and best practices) finds
 * nothing on the form, the review page, the confirmation code page and the
 * activity page (reached from the header: the agent's call and the person's
 * own Confirm apart, each with its reference).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findAccessibilityViolations } from '@agentready/testing';
import { useBrowserPerson } from './support/browser-person.ts';
import { connectMcpAgent } from './support/mcp-agent.ts';
import { agentPrepares, agentSubmits, INTERNAL_CHOICES, personConfirms, reviewPathOf } from './support/rawdata-journey.ts';
import { signInPerson } from './support/site-person.ts';

const person = useBrowserPerson();
let page: Page;
let siteUrl: string;

beforeEach(() => {
  ({ page } = person.current());
  siteUrl = person.current().site.url;
});

const byTestId = (testId: string) => `[data-testid="${testId}"]`;

/** Opens the form and waits until its script runs. */
async function openForm(): Promise<void> {
  await page.goto(`${siteUrl}/request`);
  await page.locator('form#request-form[data-enhanced="true"]').waitFor();
}

/**
 * Does `change` and waits until the page's script has put the linked fields
 * the server answered in place (its status line says so; the answer's arrival
 * alone is earlier than that).
 */
async function thenLinkedFields(change: () => Promise<unknown>): Promise<void> {
  await page.evaluate(() => (document.getElementById('form-view-status')!.textContent = ''));
  await change();
  await page.waitForFunction(() => document.getElementById('form-view-status')?.textContent === 'The fields that follow your choice are up to date.');
}

/** Ticks or unticks a source table and waits for the linked fields the server answers. */
async function pickTable(name: string, picked = true): Promise<void> {
  await thenLinkedFields(() => page.locator(`input[name=source_tables][value=${name}]`).setChecked(picked));
}

/** Chooses `value` in the select marked `testId` (focused first, as a person's click does) and waits for the linked fields. */
async function choose(testId: string, value: string): Promise<void> {
  await page.locator(byTestId(testId)).focus();
  await thenLinkedFields(() => page.locator(byTestId(testId)).selectOption(value));
}

describe('the request form with its script', () => {
  it('the linked fields follow each choice without a page load, and Send lands on the review of version 1', async () => {
    await openForm();
    await page.evaluate(() => ((window as unknown as { stayedOnPage: boolean }).stayedOnPage = true));
    await pickTable('tm_bond_position');
    await expect.poll(() => page.locator(byTestId('target-database')).isDisabled()).toBe(true);
    await choose('target-environment', 'standard');
    expect(
      await page.locator(`${byTestId('target-database')} option`).evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
    ).toEqual(['', 'proj_analytics', 'proj_reporting']);
    expect(await page.inputValue(byTestId('target-schema'))).toBe('rawdata_copy');
    await choose('target-database', 'proj_reporting');
    expect(await page.inputValue(byTestId('target-schema'))).toBe('report_src');
    expect(await page.locator(byTestId('target-database')).evaluate((select) => document.activeElement === select)).toBe(true);
    await expect.poll(() => page.locator(byTestId('retention-months')).isVisible()).toBe(true);

    await pickTable('tm_bond_position', false);
    await pickTable('cr_collateral_register');
    expect(await page.locator(byTestId('retention-months')).count()).toBe(0);
    expect(await page.locator(byTestId('housekeeping-hidden')).textContent()).toContain('No housekeeping for cr_collateral_register: refresh table');

    expect(await page.locator(byTestId('sensitive-notice')).count()).toBe(0);
    await pickTable('rb_deposit_daily_balance');
    expect(await page.locator(byTestId('sensitive-notice')).textContent()).toContain('This application copies classified data');
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);

    await page.locator(byTestId('project-name')).fill('Collateral and deposits');
    await page.locator(byTestId('reason')).fill('Collateral cover against deposit balances.');
    await page.getByLabel('Card insight analysts').check();
    await page.locator(byTestId('send-button')).click();
    await page.waitForURL(/\/drafts\/drf-[\w-]+\/review$/);
    expect(await page.locator(byTestId('draft-version')).textContent()).toBe('1');
    expect(await page.locator(byTestId('changes-summary')).textContent()).toBe('This is the first version, prepared by you, in the request form.');
  });

  it('keeps what the person chose in a section the rules hide, and shows it again when the section returns', async () => {
    await openForm();
    await pickTable('tm_bond_position');
    await choose('target-environment', 'standard');
    await page.locator(byTestId('retention-months')).fill('12');
    await choose('target-environment', 'restricted');
    expect(await page.locator(byTestId('retention-months')).count()).toBe(0);
    await choose('target-environment', 'standard');
    expect(await page.inputValue(byTestId('retention-months'))).toBe('12');
  });

  it('the search lists the tables whose words match, keeping the chosen ones', async () => {
    await openForm();
    await pickTable('tm_bond_position');
    await page.locator(byTestId('table-query')).fill('merchant');
    const listed = await page
      .locator('[data-search]:visible input[name=source_tables]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(listed).toEqual(['cd_merchant_category', 'cd_merchant_settlement_daily', 'tm_bond_position']);
  });
});

describe('accessibility (axe-core)', () => {
  it('the form, the review page and the confirmation code page have no violations', async () => {
    await openForm();
    expect(await findAccessibilityViolations(page), 'empty form').toEqual([]);
    await pickTable('rb_deposit_daily_balance');
    await pickTable('cr_collateral_register');
    await choose('target-environment', 'standard');
    expect(await findAccessibilityViolations(page), 'form with every linked field').toEqual([]);
    await page.locator(byTestId('project-name')).fill('Deposits');
    await page.locator(byTestId('send-button')).click();
    expect(await page.getByRole('alert').first().textContent()).toContain('Reason: fill it in.');
    expect(await findAccessibilityViolations(page), 'form with a problem').toEqual([]);
    await page.locator(byTestId('reason')).fill('Balances by branch.');
    await page.getByLabel('Card insight analysts').check();
    await page.locator(byTestId('send-button')).click();
    await page.waitForURL(/\/review$/);
    expect(await findAccessibilityViolations(page), 'review page').toEqual([]);
    // Without the tick the browser itself keeps the form: the box is required.
    await page.locator(byTestId('confirm-button')).click();
    expect(await page.locator(byTestId('sensitive-tick')).evaluate((box) => (box as HTMLInputElement).validity.valueMissing)).toBe(true);
    expect(page.url()).toMatch(/\/review$/);
    await page.locator(byTestId('sensitive-tick')).check();
    await page.locator(byTestId('confirm-button')).click();
    await page.locator(byTestId('confirmation-code')).waitFor();
    expect(await page.locator(byTestId('code-instruction')).textContent()).toBe('Give this code to your agent to submit version 2.');
    expect(await findAccessibilityViolations(page), 'confirmation code page').toEqual([]);
  });

  it("the activity page, reached from the header, shows the agent's call and the person's own Confirm apart, with references, without violations", {
    timeout: 120_000,
  }, async () => {
    const { site, credentials } = person.current();
    const overHttp = await signInPerson(site.url, credentials);
    const agent = await connectMcpAgent(site.url, await overHttp.createAccessToken('prepare', 'Laptop agent'));
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    await agent.close();
    await page.goto(`${siteUrl}${reviewPathOf(draft.draft_id)}`);
    await page.locator(byTestId('confirm-button')).click();
    await page.locator(byTestId('confirmation-code')).waitFor();

    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Activity' }).click();
    await page.waitForURL(`${siteUrl}/activity`);
    const agentCall = page.locator(byTestId('activity-item'));
    const ownStep = page.locator(byTestId('activity-own'));
    expect(await agentCall.count()).toBe(1);
    expect(await ownStep.count()).toBe(1);
    expect(await agentCall.textContent()).toContain('Laptop agent');
    expect(await agentCall.locator(byTestId('activity-tool')).textContent()).toBe('Prepare a data-copy application draft');
    expect(await ownStep.textContent()).toContain('You confirmed a draft version and got its confirmation code');
    expect(await ownStep.textContent()).not.toContain('Laptop agent');
    for (const reference of await page.locator(`${byTestId('activity-reference')} code`).all()) {
      expect(await reference.isVisible()).toBe(true);
      expect(await reference.textContent()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(await findAccessibilityViolations(page), 'activity page').toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await findAccessibilityViolations(page), 'activity page, phone-sized').toEqual([]);

    await agentCall.getByRole('link', { name: `draft ${draft.draft_id}` }).click();
    await page.waitForURL(`${siteUrl}${reviewPathOf(draft.draft_id)}`);
  });

  it('my applications, one application, the operator queue and /autonomy have no violations', async () => {
    const { site, credentials } = person.current();
    const overHttp = await signInPerson(site.url, credentials);
    const agent = await connectMcpAgent(site.url, await overHttp.createAccessToken('submit'));
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    const confirmed = await personConfirms(overHttp, draft.draft_id, { tick: false });
    const submitted = await agentSubmits(agent, draft.draft_id, confirmed.version, confirmed.code);
    await agent.close();
    if (!submitted.ok) throw new Error(`submit refused: ${submitted.code}`);
    for (const path of ['/applications', `/applications/${submitted.data.application_id}`, '/autonomy', '/operator']) {
      await page.goto(`${siteUrl}${path}`);
      expect(await findAccessibilityViolations(page), path).toEqual([]);
    }
    const operator = await site.addAnalyst('omar@example.com', { operator: true, clearance: 'restricted' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(operator.email);
    await page.getByLabel('Password').fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.goto(`${siteUrl}/operator`);
    expect(await page.locator(byTestId('queue-entry')).count()).toBe(1);
    expect(await findAccessibilityViolations(page), 'operator queue').toEqual([]);
  });
});
