/**
 * @module The rawdata domain's public API in one place (apps/rawdata spec):
 * vocabulary and seeded catalog, target environments, permission groups,
 * rawdata-rules-v1, drafts (build, revise, evaluate), the context answer,
 * code generation and the request form. Pure: no I/O anywhere below.
 */
export * from './source-metadata.ts';
export * from './source-catalog.ts';
export * from './target-environments.ts';
export * from './permission-groups.ts';
export * from './rule-set.ts';
export * from 'agentready';
export * from './application-draft.ts';
export {
  DEFAULT_RETENTION_MONTHS,
  RETENTION_BOUNDS,
  kindLayout,
  tableBlock,
  housekeepingFor,
  copyFrequencyFor,
  deidentificationFor,
  needsSensitiveConfirmation,
} from './table-rules.ts';
export type { KindLayout, TableBlock, HousekeepingDecision } from './table-rules.ts';
export * from './table-context.ts';
export * from './code-generation.ts';
export * from './request-form.ts';
