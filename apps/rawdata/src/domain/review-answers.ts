/**
 * @module The questions of a draft's evaluation (`needs_confirmation`) that
 * the person may answer on the review page, and each answer as the change
 * an agent's revision would make: the same rules, a new version changed by
 * the person (the draft history records who).
 */
import type { DraftChanges } from './draft-shapes.ts';

/** A question's field → whether several choices may be taken, and the change its answer makes. */
export const ANSWERABLE_QUESTIONS: Readonly<Record<string, { several: boolean; change(choices: string[]): DraftChanges }>> = {
  'preferences.target_environment': { several: false, change: (choices) => ({ target_environment: choices[0] as DraftChanges['target_environment'] }) },
  'preferences.target_database': { several: false, change: (choices) => ({ target_database: choices[0] ?? null }) },
  'intent.permission_targets': { several: true, change: (choices) => ({ permission_targets: choices }) },
};

/**
 * The change the person's answer to the question `field` makes, or null when
 * the question is not one answered on the page, or no choice was given. The
 * choice itself is checked by the revision's own rules (`reviseChoices`).
 *
 * @example reviewAnswerChange('preferences.target_environment', ['sandbox']) // { target_environment: 'sandbox' }
 */
export function reviewAnswerChange(field: string, choices: string[]): DraftChanges | null {
  const question = Object.hasOwn(ANSWERABLE_QUESTIONS, field) ? ANSWERABLE_QUESTIONS[field] : undefined;
  if (question === undefined || choices.length === 0 || (!question.several && choices.length > 1)) return null;
  return question.change(choices);
}
