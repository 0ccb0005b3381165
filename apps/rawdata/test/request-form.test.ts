/**
 * The people's form and the tools share the rules: the form's fields build
 * the same choices (and so the same draft) as a tool's input, and the form's
 * linked fields show what the rules decide.
 */
import { describe, expect, it } from 'vitest';
import { buildDraft } from '../src/domain/application-draft.ts';
import { choicesFromForm, requestFormView } from '../src/domain/request-form.ts';
import { analystContext, cardStudyChoices } from './support/domain-fixtures.ts';
import { RULE_CASES } from './support/rule-cases.ts';
import { formFieldsOf } from './support/rawdata-journey.ts';

describe('choicesFromForm', () => {
  it.each(RULE_CASES.map((row) => [`${row.rule}: ${row.name}`, row.choices] as const))(
    'builds the same draft as buildDraft for the choices of %s',
    (_, choices) => {
      const fromForm = choicesFromForm(formFieldsOf(choices));
      expect(fromForm).toEqual({ ok: true, value: choices });
      if (!fromForm.ok) return;
      const ctx = analystContext();
      expect(JSON.stringify(buildDraft(fromForm.value, ctx))).toBe(JSON.stringify(buildDraft(choices, ctx)));
    },
  );

  it('reads one value separated by commas for a list, and trims text as the tool schema does', () => {
    const result = choicesFromForm({
      ...formFieldsOf(cardStudyChoices()),
      source_tables: 'cd_card_transaction, cd_merchant_category',
      project_name: '  Card spending study ',
    });
    expect(result).toEqual({ ok: true, value: cardStudyChoices() });
  });

  it('ignores fields the form posts for itself', () => {
    expect(choicesFromForm({ ...formFieldsOf(cardStudyChoices()), draft_version: '3', _csrf: 'x' })).toEqual({ ok: true, value: cardStudyChoices() });
  });

  it.each([
    ['an empty project name', { project_name: '   ' }, 'project_name'],
    ['a project name over 80 characters', { project_name: 'p'.repeat(81) }, 'project_name'],
    ['a reason over 500 characters', { reason: 'r'.repeat(501) }, 'reason'],
    ['no permission target', { permission_targets: [] }, 'permission_targets'],
    ['eleven permission targets', { permission_targets: Array.from({ length: 11 }, (_, i) => `grp-team-${i}`) }, 'permission_targets'],
    ['a retention that is not a whole number', { retention_months: 'six' }, 'retention_months'],
    ['a retention of 37 months', { retention_months: '37' }, 'retention_months'],
    ['an unknown environment', { target_environment: 'cloud' }, 'target_environment'],
    ['two project names', { project_name: ['a', 'b'] }, 'project_name'],
    ['no table', { source_tables: [] }, 'source_tables'],
  ])('refuses %s, naming the form field', (_, change, field) => {
    const result = choicesFromForm({ ...formFieldsOf(cardStudyChoices()), ...change });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ code: 'INVALID_INPUT', field });
    // The message names the field as the form labels it, never the input's path.
    expect(result.failure.message).toMatch(/^[A-Z][a-z -]+: /);
    expect(result.failure.message).not.toMatch(/intent\.|preferences\./);
  });
});

describe('requestFormView', () => {
  const ctx = analystContext();

  it('the database options follow the environment, and the chosen database shows its schema', () => {
    const view = requestFormView({ source_tables: ['rb_atm_withdrawal'], target_environment: 'standard', target_database: 'proj_reporting' }, ctx);
    expect(view.database).toEqual({
      selected: 'proj_reporting',
      recommended: 'proj_analytics',
      options: [
        { name: 'proj_analytics', schema: 'rawdata_copy' },
        { name: 'proj_reporting', schema: 'report_src' },
      ],
      schema: 'report_src',
    });
    expect(requestFormView({ source_tables: ['rb_atm_withdrawal'] }, ctx).database.options).toEqual([]);
  });

  it('the environment options say which accept every chosen table', () => {
    const view = requestFormView({ source_tables: ['cd_card_transaction', 'rb_atm_withdrawal'] }, ctx);
    expect(view.environment.options.map((option) => [option.id, option.accepts_every_table])).toEqual([
      ['standard', true],
      ['restricted', true],
      ['sandbox', false],
    ]);
  });

  it('housekeeping is hidden for a refresh table and for the restricted target, with the reason', () => {
    const standard = requestFormView({ source_tables: ['rb_atm_withdrawal', 'cr_collateral_register'], target_environment: 'standard' }, ctx);
    expect(standard.housekeeping).toEqual([
      expect.objectContaining({ table: 'rb_atm_withdrawal', visible: true }),
      expect.objectContaining({ table: 'cr_collateral_register', visible: false, rule: 'RD-HOUSEKEEPING-SKIP', reason: expect.stringContaining('refresh') }),
    ]);
    expect(standard.retention).toEqual({ shown: true, min: 1, max: 36, default: 3, value: null });
    const restricted = requestFormView({ source_tables: ['rb_atm_withdrawal'], target_environment: 'restricted' }, ctx);
    expect(restricted.housekeeping[0]).toMatchObject({ visible: false, reason: expect.stringContaining('restricted') });
    expect(restricted.retention.shown).toBe(false);
  });

  it('classified data shows the sensitive-data notice and the de-identification preview', () => {
    const view = requestFormView({ source_tables: ['cd_card_account_snapshot'], target_environment: 'standard' }, ctx);
    expect(view.sensitive_notice).toMatchObject({ shown: true, confirmed: false, text: expect.stringContaining('classified') });
    expect(view.deidentification_preview.map((entry) => [entry.column, entry.method])).toEqual([
      ['account_number', 'sha256'],
      ['holder_name', 'mask'],
      ['bureau_score', 'drop'],
    ]);
    expect(requestFormView({ source_tables: ['rb_atm_withdrawal'] }, ctx).sensitive_notice).toEqual({ shown: false, text: null, confirmed: false });
  });

  it('incomplete fields give no evaluation and name the first field to fill; complete ones give the draft\u2019s evaluation', () => {
    const partial = requestFormView({ source_tables: ['rb_atm_withdrawal'] }, ctx);
    expect(partial.evaluation).toBeNull();
    expect(partial.problem).toMatchObject({ code: 'INVALID_INPUT', field: 'project_name' });
    const choices = cardStudyChoices();
    const complete = requestFormView(formFieldsOf(choices), ctx);
    const draft = buildDraft(choices, ctx);
    expect(complete.problem).toBeNull();
    expect(complete.evaluation).toEqual(draft.ok ? draft.value.evaluation : 'a draft');
  });

  it('an unknown table is listed as unknown and the problem offers similar names', () => {
    const view = requestFormView({ ...formFieldsOf(cardStudyChoices()), source_tables: ['cd_card_transactions'] }, ctx);
    expect(view.tables).toEqual([expect.objectContaining({ name: 'cd_card_transactions', known: false })]);
    expect(view.problem).toMatchObject({ code: 'NOT_FOUND', candidates: expect.arrayContaining([expect.objectContaining({ id: 'cd_card_transaction' })]) });
  });
});
