/**
 * Drafts beyond single rules: what an agent reads on blocked and needs_input
 * drafts, revising choices (and the sensitive-data confirmation it
 * withdraws), a revision that makes a second target database, evaluating a
 * stored draft again, determinism of the payload, and no e-mail or internal
 * id in what the domain answers.
 */
import { describe, expect, it } from 'vitest';
import { buildDraft, confirmSensitiveData, evaluateDraft, reviseChoices, type DraftChoices, type DraftContent } from '../src/domain/application-draft.ts';
import { seededSourceMetadata } from '../src/domain/source-catalog.ts';
import { ANALYST_REF, analystContext, cardStudyChoices } from './support/domain-fixtures.ts';

function built(choices: DraftChoices, ctx = analystContext()) {
  const result = buildDraft(choices, ctx);
  if (!result.ok) throw new Error(`expected a draft, got ${result.failure.code}: ${result.failure.message}`);
  return result.value;
}

describe('blocked drafts', () => {
  it.each([
    ['missing metadata', ['cr_stress_test_scenario'], 'restricted', 'RD-METADATA-REQUIRED'],
    ['an event log (no rule)', ['tm_market_data_tick'], 'restricted', 'RD-TABLE-KIND'],
    ['no clearance', ['rb_customer_profile'], 'classified', 'RD-CLEARANCE'],
  ] as const)('%s: built and stored, but blocked, not recoverable, and the agent is told to stop and hand over', (_, tables, clearance, rule) => {
    const { evaluation, content } = built(
      cardStudyChoices({ source_tables: [...tables], preferences: { target_environment: 'restricted', target_database: null, retention_months: null } }),
      analystContext(clearance),
    );
    expect(evaluation.validation.status).toBe('blocked');
    const issue = evaluation.validation.issues.find((candidate) => candidate.code === 'BLOCKED');
    expect(issue).toMatchObject({ rule, recoverable: false, field: 'source_tables' });
    expect(issue?.next_action).toMatch(/^Stop/);
    expect(issue?.next_action).toContain('hand the draft to a person');
    expect(content.payload.items.map((item) => item.source_table)).toEqual(tables);
  });
});

describe('needs_input drafts say what to ask the person', () => {
  it('every recoverable issue names its field and what to ask; every confirmation asks a question', () => {
    const { evaluation } = built(
      cardStudyChoices({
        source_tables: ['cd_card_transaction'],
        intent: { ...cardStudyChoices().intent, permission_targets: ['grp-open-data'] },
        preferences: { target_environment: 'standard', target_database: 'sandbox_lab', retention_months: null },
      }),
    );
    expect(evaluation.validation.status).toBe('needs_input');
    expect(evaluation.validation.issues.map((issue) => issue.field).sort()).toEqual(['intent.permission_targets', 'preferences.target_database']);
    for (const issue of evaluation.validation.issues) {
      expect(issue.recoverable).toBe(true);
      expect(issue.next_action).toMatch(/^Ask the person/);
    }
    expect(evaluation.needs_confirmation.map((entry) => entry.field).sort()).toEqual([
      'intent.permission_targets',
      'preferences.target_database',
      'sensitive_data_confirmed',
    ]);
    for (const entry of evaluation.needs_confirmation) expect(entry.question.length).toBeGreaterThan(10);
    expect(evaluation.needs_confirmation.find((entry) => entry.field === 'sensitive_data_confirmed')?.question).toContain('review page');
  });
});

describe('the second target database', () => {
  it('adding a restricted table to a standard application is a CONFLICT with two candidates', () => {
    const first = built(cardStudyChoices());
    const revised = reviseChoices(first.content.choices, { add_source_tables: ['rb_customer_profile'] });
    if (!revised.ok) throw new Error(revised.failure.message);
    const result = buildDraft(revised.value, analystContext());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.code).toBe('CONFLICT');
    expect(result.failure.field).toBe('target_environment');
    expect(result.failure.candidates).toEqual([
      { id: 'keep_environment', label: expect.stringContaining('Keep standard and leave rb_customer_profile for another application') },
      { id: 'move_application', label: expect.stringContaining('Move the whole application to restricted') },
    ]);
    expect(result.failure.nextAction).toContain('Ask the person which they prefer');
    expect(result.failure.nextAction).toContain('target_environment "restricted"');
  });

  it('either candidate, applied with a revision, gives a draft', () => {
    const withProfile = cardStudyChoices({ source_tables: ['cd_card_transaction', 'cd_merchant_category', 'rb_customer_profile'] });
    const keep = reviseChoices(withProfile, { remove_source_tables: ['rb_customer_profile'] });
    const move = reviseChoices(withProfile, { target_environment: 'restricted' });
    if (!keep.ok || !move.ok) throw new Error('revision refused');
    expect(built(keep.value).content.payload.target).toEqual({ environment: 'standard', database: 'proj_analytics', schema: 'rawdata_copy' });
    expect(built(move.value).content.payload.target).toEqual({ environment: 'restricted', database: 'secure_vault', schema: 'restricted_copy' });
  });
});

describe('reviseChoices', () => {
  const confirmed = confirmSensitiveData(cardStudyChoices());

  it.each([
    ['a new project name', { project_name: 'Card spending study 2027' }],
    ['a retention', { retention_months: 6 }],
    ['a table removed', { remove_source_tables: ['cd_merchant_category'] }],
  ])('any change (%s) withdraws the person\u2019s sensitive-data confirmation', (_, changes) => {
    expect(confirmed.sensitive_data_confirmed).toBe(true);
    const revised = reviseChoices(confirmed, changes);
    expect(revised.ok && revised.value.sensitive_data_confirmed).toBe(false);
    if (revised.ok) expect(built(revised.value).evaluation.needs_confirmation.map((entry) => entry.field)).toContain('sensitive_data_confirmed');
  });

  it('keeps what was not changed and the table order, adding at the end', () => {
    const revised = reviseChoices(cardStudyChoices(), { add_source_tables: ['cd_card_product'], requested_frequency: 'weekly' });
    expect(revised).toEqual({
      ok: true,
      value: {
        ...cardStudyChoices(),
        source_tables: ['cd_card_transaction', 'cd_merchant_category', 'cd_card_product'],
        intent: { ...cardStudyChoices().intent, requested_frequency: 'weekly' },
      },
    });
  });

  it('a new environment that lacks the chosen database clears it; null clears a preference', () => {
    const revised = reviseChoices(
      cardStudyChoices({ preferences: { target_environment: 'standard', target_database: 'proj_reporting', retention_months: 12 } }),
      { target_environment: 'restricted', retention_months: null },
    );
    expect(revised.ok && revised.value.preferences).toEqual({ target_environment: 'restricted', target_database: null, retention_months: null });
  });

  it.each([
    ['adding a table already present', { add_source_tables: ['cd_merchant_category'] }, 'add_source_tables', 'cd_merchant_category'],
    ['adding the same table twice', { add_source_tables: ['cd_card_product', 'cd_card_product'] }, 'add_source_tables', 'cd_card_product'],
    ['removing a table not in the draft', { remove_source_tables: ['rb_atm_withdrawal'] }, 'remove_source_tables', 'rb_atm_withdrawal'],
    ['removing the last table', { remove_source_tables: ['cd_card_transaction', 'cd_merchant_category'] }, 'remove_source_tables', 'at least one'],
    ['a retention beyond 36 months', { retention_months: 48 }, 'retention_months', '36'],
    ['no change at all', {}, undefined, 'at least one change'],
    ['an unknown field', { sensitive_data_confirmed: true }, 'sensitive_data_confirmed', 'Unknown field'],
  ])('refuses %s with INVALID_INPUT naming it', (_, changes, field, named) => {
    const revised = reviseChoices(cardStudyChoices(), changes as never);
    expect(revised.ok).toBe(false);
    if (revised.ok) return;
    expect(revised.failure.code).toBe('INVALID_INPUT');
    expect(revised.failure.field).toBe(field);
    expect(revised.failure.message).toContain(named);
  });
});

describe('determinism', () => {
  it('the same choices, metadata and rules give byte-identical content, whatever the key order of the input', () => {
    const a = built(cardStudyChoices());
    const reordered = JSON.parse(
      '{"sensitive_data_confirmed":false,"preferences":{"retention_months":null,"target_database":"proj_analytics","target_environment":"standard"},"intent":{"requested_frequency":"daily","permission_targets":["grp-card-insight"],"reason":"Spending patterns by merchant category for the 2027 card campaign.","project_name":"Card spending study"},"source_tables":["cd_card_transaction","cd_merchant_category"]}',
    ) as DraftChoices;
    const b = built(reordered);
    expect(JSON.stringify(b.content)).toBe(JSON.stringify(a.content));
    expect(JSON.stringify(b.evaluation)).toBe(JSON.stringify(a.evaluation));
  });

  it('items follow the order of source_tables', () => {
    const reversed = built(cardStudyChoices({ source_tables: ['cd_merchant_category', 'cd_card_transaction'] }));
    expect(reversed.content.payload.items.map((item) => item.source_table)).toEqual(['cd_merchant_category', 'cd_card_transaction']);
  });

  it('records the rule set, metadata version and applicant it was built with', () => {
    const { content, evaluation } = built(cardStudyChoices());
    expect(content).toMatchObject({ rule_set: 'rawdata-rules-v1', metadata_version: '2026-11-27', applicant_ref: ANALYST_REF });
    expect(evaluation.evidence).toEqual({ metadata_version: '2026-11-27', rule_set: 'rawdata-rules-v1' });
  });
});

describe('evaluateDraft', () => {
  it('shows a stored draft as buildDraft did', () => {
    const { content, evaluation } = built(cardStudyChoices());
    const stored = JSON.parse(JSON.stringify(content)) as DraftContent;
    expect(evaluateDraft(stored, analystContext())).toEqual(evaluation);
  });

  it('a draft made under other metadata asks for a revision before it is confirmed', () => {
    const { content } = built(cardStudyChoices());
    const newer = { ...seededSourceMetadata, version: '2026-12-04' };
    const evaluation = evaluateDraft(content, { ...analystContext(), metadata: newer });
    expect(evaluation.validation.issues).toContainEqual(expect.objectContaining({ code: 'INVALID_INPUT', field: 'draft', recoverable: true }));
    expect(evaluation.validation.status).toBe('needs_input');
  });

  it('a draft of another applicant is blocked', () => {
    const { content } = built(cardStudyChoices());
    const other = { ...analystContext(), applicant: { accountRef: 'acc-someone-else', unit: null, clearance: 'restricted' as const } };
    const evaluation = evaluateDraft(content, other);
    expect(evaluation.validation.status).toBe('blocked');
    expect(evaluation.validation.issues).toContainEqual(expect.objectContaining({ code: 'BLOCKED', field: 'applicant_ref', recoverable: false }));
  });
});

describe('what the domain answers', () => {
  it('holds no e-mail address or internal id; the applicant appears only as its account ref', () => {
    const everything = cardStudyChoices({
      source_tables: ['rb_customer_profile', 'co_complaint_case', 'cr_bureau_inquiry_monthly', 'cr_stress_test_scenario', 'cd_fraud_alert_log'],
      intent: { ...cardStudyChoices().intent, permission_targets: ['grp-compliance-review'] },
      preferences: { target_environment: 'restricted', target_database: null, retention_months: null },
    });
    const text = JSON.stringify(built(everything));
    expect(text).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+/);
    expect(text.match(/acc-[a-z0-9-]+/g)?.every((ref) => ref === ANALYST_REF)).toBe(true);
    expect(text).not.toMatch(/\b(id|row_id|user_id)":\s*\d+/);
  });
});
