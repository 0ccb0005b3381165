/**
 * Choices and contexts the rawdata domain tests share: an analyst cleared for
 * restricted data (or less), against the seeded catalog.
 */
import type { DraftChoices, RuleContext } from '../../src/domain/draft-shapes.ts';
import { seededSourceMetadata } from '../../src/domain/source-catalog.ts';
import type { DataLevel } from '../../src/domain/source-metadata.ts';

/** The analyst's opaque account reference: the only way the applicant appears in outputs. */
export const ANALYST_REF = 'acc-9q4w7e';

/** A context for an analyst cleared for `clearance`, against the seeded catalog. */
export function analystContext(clearance: DataLevel = 'restricted'): RuleContext {
  return { metadata: seededSourceMetadata, applicant: { accountRef: ANALYST_REF, unit: 'Card Services', clearance } };
}

/** Choices for a card spending study: two card tables into the standard environment. */
export function cardStudyChoices(overrides: Partial<DraftChoices> = {}): DraftChoices {
  return {
    source_tables: ['cd_card_transaction', 'cd_merchant_category'],
    intent: {
      project_name: 'Card spending study',
      reason: 'Spending patterns by merchant category for the 2027 card campaign.',
      permission_targets: ['grp-card-insight'],
      requested_frequency: 'daily',
    },
    preferences: { target_environment: 'standard', target_database: 'proj_analytics', retention_months: null },
    sensitive_data_confirmed: false,
    ...overrides,
  };
}
