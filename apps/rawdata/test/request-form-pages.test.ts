/**
 * The request form without a script, over real HTTP as a browser without
 * JavaScript sends it: Update shows the linked fields the rules drive (the
 * environment's databases, the schema the database decides, housekeeping
 * hidden with why, retention bounds, the sensitive-data notice, the
 * de-identification preview), `POST /request/form-view` answers the same
 * linked fields alone, and Send makes version 1 of a draft through the
 * site's step and lands on its review page. On SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, type HTMLElement } from 'node-html-parser';
import { choicesFromForm, formFieldsFromChoices } from '../src/domain/request-form.ts';
import { DIALECTS, startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { CLASSIFIED_CHOICES, formFieldsFor, INTERNAL_CHOICES } from './support/rawdata-journey.ts';
import { RULE_CASES } from './support/rule-cases.ts';
import { signInPerson, type SitePerson, testIdText } from './support/site-person.ts';

function optionValues(page: HTMLElement, testId: string): string[] {
  return page.querySelectorAll(`[data-testid=${testId}] option`).map((option) => option.getAttribute('value') ?? '');
}

async function draftCount(site: RawdataSite): Promise<number> {
  const row = await site.db
    .selectFrom('rawdata_draft_revision')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(DIALECTS)('the request form without a script (%s)', (dialect) => {
  let site: RawdataSite;
  let person: SitePerson;

  beforeEach(async () => {
    site = await startRawdataSite({ dialect });
    person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
  });
  afterEach(async () => {
    await site.close();
  });

  it('signed out, /request sends the person to sign in and back', async () => {
    const answer = await fetch(`${site.url}/request`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toBe('/signin?next=%2Frequest');
  });

  it('lists the catalog to pick from, and the search keeps the matches and every chosen table', async () => {
    const all = await person.get('/request');
    expect(all.status).toBe(200);
    expect(all.page.querySelectorAll('input[name=source_tables]').length).toBe(44);
    const searched = await person.post('/request', { action: 'update', table_query: 'merchant', source_tables: ['tm_bond_position'] });
    const listed = searched.page.querySelectorAll('input[name=source_tables]').map((input) => input.getAttribute('value'));
    expect(listed).toEqual(['cd_merchant_category', 'cd_merchant_settlement_daily', 'tm_bond_position']);
    expect(searched.page.querySelector('input[value=tm_bond_position]')?.hasAttribute('checked')).toBe(true);
  });

  it('Update: choosing an environment lists its databases; the database sets the read-only schema', async () => {
    const none = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'] });
    expect(none.page.querySelector('[data-testid=target-database]')?.hasAttribute('disabled')).toBe(true);
    const standard = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'], target_environment: 'standard' });
    expect(optionValues(standard.page, 'target-database')).toEqual(['', 'proj_analytics', 'proj_reporting']);
    expect(standard.page.querySelector('[data-testid=target-schema]')?.getAttribute('value')).toBe('rawdata_copy');
    expect(standard.page.querySelector('[data-testid=target-schema]')?.hasAttribute('readonly')).toBe(true);
    const reporting = await person.post('/request', {
      action: 'update',
      source_tables: ['tm_bond_position'],
      target_environment: 'standard',
      target_database: 'proj_reporting',
    });
    expect(reporting.page.querySelector('[data-testid=target-schema]')?.getAttribute('value')).toBe('report_src');
    const sandbox = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'], target_environment: 'sandbox' });
    expect(optionValues(sandbox.page, 'target-database')).toEqual(['', 'sandbox_lab', 'sandbox_scratch']);
    expect(sandbox.page.querySelector('[data-testid=target-schema]')?.getAttribute('value')).toBe('lab');
  });

  it('Update: housekeeping shows its bounds for an append table and hides, saying why, for a refresh table or a restricted target', async () => {
    const append = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'], target_environment: 'standard' });
    const retention = append.page.querySelector('[data-testid=retention-months]');
    expect([retention?.getAttribute('min'), retention?.getAttribute('max'), retention?.getAttribute('placeholder')]).toEqual(['1', '36', '3']);
    expect(append.page.querySelector('[data-testid=housekeeping-hidden]')).toBeNull();
    const refresh = await person.post('/request', { action: 'update', source_tables: ['cr_collateral_register'], target_environment: 'standard' });
    expect(refresh.page.querySelector('[data-testid=retention-months]')).toBeNull();
    expect(testIdText(refresh.page, 'housekeeping-hidden')).toContain('No housekeeping for cr_collateral_register: refresh table');
    const restricted = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'], target_environment: 'restricted' });
    expect(restricted.page.querySelector('[data-testid=retention-months]')).toBeNull();
    expect(testIdText(restricted.page, 'housekeeping-hidden')).toContain('restricted target');
  });

  it('Update: a classified table shows the sensitive-data notice and the de-identification preview; an internal one neither', async () => {
    const classified = await person.post('/request', { action: 'update', source_tables: ['rb_deposit_daily_balance'], target_environment: 'standard' });
    expect(testIdText(classified.page, 'sensitive-notice')).toContain('This application copies classified data');
    const preview = classified.page.querySelectorAll('[data-testid=deidentification-preview] tbody tr').map((row) =>
      row
        .querySelectorAll('td')
        .map((cell) => cell.text.trim())
        .slice(1, 4),
    );
    expect(preview).toEqual([
      ['account_number', 'account_number', 'sha256'],
      ['customer_name', 'person_name', 'mask'],
    ]);
    const internal = await person.post('/request', { action: 'update', source_tables: ['tm_bond_position'], target_environment: 'standard' });
    expect(internal.page.querySelector('[data-testid=sensitive-notice]')).toBeNull();
    expect(internal.page.querySelector('[data-testid=deidentification-preview]')).toBeNull();
  });

  it('POST /request/form-view answers the linked fields alone, the same markup the whole page shows', async () => {
    const fields = formFieldsFor(CLASSIFIED_CHOICES, 'update');
    const whole = await person.post('/request', fields);
    const fragment = await person.post('/request/form-view', fields);
    expect(fragment.status).toBe(200);
    expect(fragment.html).not.toContain('<html');
    // Both read by the same parser, so both are written out the same way.
    expect(parse(fragment.html).toString()).toBe(whole.page.querySelector('[data-testid=linked-fields]')?.innerHTML);
    expect(parse(fragment.html).querySelector('[data-testid=target-schema]')?.getAttribute('value')).toBe('report_src');
  });

  it('Send makes version 1 through the site step and lands on its review page', async () => {
    const sent = await person.post('/request', formFieldsFor(INTERNAL_CHOICES));
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/^\/drafts\/drf-[\w-]+\/review$/);
    const review = await person.get(sent.location!);
    expect(testIdText(review.page, 'draft-version')).toBe('1');
    expect(testIdText(review.page, 'changes-summary')).toBe('This is the first version, prepared by you, in the request form.');
    const audit = await site.db
      .selectFrom('agentready_audit_record')
      .select(['tool', 'surface', 'outcome_code'])
      .where('tool', '=', 'prepare_draft_from_form')
      .execute();
    expect(audit).toEqual([{ tool: 'prepare_draft_from_form', surface: 'ui', outcome_code: 'SUCCESS' }]);
  });

  it('Send with a field missing or a table not in the catalog shows the form again with the problem, and stores nothing', async () => {
    const missing = await person.post('/request', { ...formFieldsFor(INTERNAL_CHOICES), project_name: '' });
    expect(missing.status).toBe(400);
    expect(missing.page.querySelector('[role=alert]')?.text).toContain('Project name: fill it in.');
    expect(missing.page.querySelector('input[value=tm_bond_position]')?.hasAttribute('checked')).toBe(true);
    const unknown = await person.post('/request', { ...formFieldsFor(INTERNAL_CHOICES), source_tables: ['tm_bond_positions'] });
    expect(unknown.status).toBe(404);
    expect(unknown.page.querySelector('[role=alert]')?.text).toContain('tm_bond_positions');
    expect(await draftCount(site)).toBe(0);
  });

  it('a form post without the session\u2019s CSRF token is refused (403) and stores nothing', async () => {
    const refused = await person.post('/request', { ...formFieldsFor(INTERNAL_CHOICES), csrf_token: '' });
    expect(refused.status).toBe(403);
    expect((await person.post('/request/form-view', { ...formFieldsFor(INTERNAL_CHOICES), csrf_token: 'not-the-token' })).status).toBe(403);
    expect(await draftCount(site)).toBe(0);
  });

  it('a draft opens in the form again with its choices (?draft=)', async () => {
    const sent = await person.post('/request', formFieldsFor(CLASSIFIED_CHOICES));
    const draftId = sent.location!.split('/')[2]!;
    const again = await person.get(`/request?draft=${draftId}`);
    expect(again.page.querySelector('[data-testid=project-name]')?.getAttribute('value')).toBe(CLASSIFIED_CHOICES.intent.project_name);
    expect(again.page.querySelectorAll('input[name=source_tables][checked]').map((input) => input.getAttribute('value'))).toEqual(
      CLASSIFIED_CHOICES.source_tables,
    );
    expect(again.page.querySelector('[data-testid=retention-months]')?.getAttribute('value')).toBe('6');
  });
});

describe('formFieldsFromChoices', () => {
  it.each(RULE_CASES.map((row) => [`${row.rule}: ${row.name}`, row.choices] as const))(
    'is what choicesFromForm reads back as the same choices (%s)',
    (_, choices) => {
      expect(choicesFromForm(formFieldsFromChoices(choices))).toEqual({ ok: true, value: choices });
    },
  );
});
