/**
 * Reads a draft answer (a refusal, or a draft's evaluation) against a row of
 * rule-cases.ts: each expected entry must be found in the answer as it is.
 */
import { expect } from 'vitest';
import type { FailureDetails } from 'agentready';
import type { DraftEvaluation } from '../../src/domain/draft-shapes.ts';
import type { RuleCaseExpectation } from './rule-cases.ts';

/** What a draft call answered: refused with `failure`, or built with `evaluation`. */
export type DraftAnswer = { failure: FailureDetails } | { evaluation: DraftEvaluation };

/** Asserts `answer` meets `expectation` (rule-cases.ts). */
export function expectRuleCase(answer: DraftAnswer, expectation: RuleCaseExpectation): void {
  if (expectation.outcome === 'refused') {
    expect('failure' in answer, 'the draft is refused').toBe(true);
    if (!('failure' in answer)) return;
    expect(answer.failure).toMatchObject({ code: expectation.refusal?.code, field: expectation.refusal?.field });
    expect(answer.failure.nextAction, 'a refusal says what to do next').toBeTruthy();
    if (expectation.refusal?.candidateIds) expect(answer.failure.candidates?.map((candidate) => candidate.id)).toEqual(expectation.refusal.candidateIds);
    return;
  }
  expect('evaluation' in answer, `the draft is built (got ${JSON.stringify('failure' in answer ? answer.failure : null)})`).toBe(true);
  if (!('evaluation' in answer)) return;
  const evaluation = answer.evaluation;
  expect(evaluation.validation.status).toBe(expectation.outcome);
  for (const resolved of expectation.resolved ?? []) {
    const found = evaluation.resolved_values.find((entry) => entry.field === resolved.field);
    expect(found, `resolved ${resolved.field}`).toBeDefined();
    expect(found?.value).toEqual(resolved.value);
    if (resolved.rule) expect(found?.rule).toBe(resolved.rule);
    if (resolved.reasonIncludes) expect(found?.reason).toContain(resolved.reasonIncludes);
  }
  for (const recommended of expectation.recommended ?? []) {
    expect(evaluation.recommendations).toContainEqual(expect.objectContaining({ field: recommended.field, value: recommended.value, rule: recommended.rule }));
  }
  for (const issue of expectation.issues ?? []) {
    const found = evaluation.validation.issues.find(
      (entry) => entry.code === issue.code && entry.field === issue.field && (!issue.rule || entry.rule === issue.rule),
    );
    expect(found, `issue ${issue.code} on ${issue.field}`).toBeDefined();
    if (issue.messageIncludes) expect(found?.message).toContain(issue.messageIncludes);
  }
  for (const confirmation of expectation.confirmations ?? []) {
    const found = evaluation.needs_confirmation.find((entry) => entry.field === confirmation.field);
    expect(found, `needs_confirmation ${confirmation.field}`).toBeDefined();
    if (confirmation.choiceIds) expect(found?.choices?.map((choice) => choice.id)).toEqual(confirmation.choiceIds);
  }
  for (const field of expectation.noConfirmationFor ?? []) {
    expect(evaluation.needs_confirmation.map((entry) => entry.field)).not.toContain(field);
  }
  if (expectation.target !== undefined) expect(evaluation.payload_preview.target).toEqual(expectation.target);
  expectItems(evaluation, expectation);
}

function expectItems(evaluation: DraftEvaluation, expectation: RuleCaseExpectation): void {
  const item = (name: string) => evaluation.payload_preview.items.find((candidate) => candidate.source_table === name);
  for (const expected of expectation.items ?? []) expect(item(expected.source_table)).toMatchObject(expected);
  for (const expected of expectation.deidentified ?? []) {
    const entry = item(expected.source_table)?.deidentification.find((candidate) => candidate.column === expected.column);
    expect(entry?.method, `${expected.source_table}.${expected.column}`).toBe(expected.method);
    if (expected.expressionIncludes === null) expect(entry?.expression).toBeNull();
    else expect(entry?.expression).toContain(expected.expressionIncludes);
  }
  for (const absent of expectation.columnsAbsent ?? []) {
    expect(item(absent.source_table)?.columns.map((column) => column.name)).not.toContain(absent.column);
  }
}
