/**
 * @module How a draft's evaluation reads on the request form and the review
 * page: its validation status with the issues and what the person must
 * decide, what the system resolved and what it recommends (each with the
 * rule behind it), and the rules cited with the policy text they come from.
 */
import { Fragment } from 'preact';
import type { DraftEvaluation } from '../../domain/application-draft.ts';
import type { Rule } from '../../domain/rule-set.ts';
import { ANSWERABLE_QUESTIONS } from '../../domain/review-answers.ts';

/** Where the review page's answers to a question go: the draft version shown, and the session's CSRF token. */
export type QuestionAnswering = { csrfToken: string; draftId: string; version: number };

const STATUS_WORDS = {
  valid: 'Ready for you to confirm.',
  needs_input: 'Needs your input before it can be confirmed.',
  blocked: 'Blocked: a rule stops this request. Hand it to a person (the data platform team); it cannot be confirmed here.',
} as const;

/**
 * The validation status, its issues and the questions only the person
 * answers. `alert` marks the issues as an alert (the review page); the form
 * leaves them as text, since it shows them again on every change.
 */
export function EvaluationSummary({ evaluation, alert = false, answering }: { evaluation: DraftEvaluation; alert?: boolean; answering?: QuestionAnswering }) {
  const { status, issues } = evaluation.validation;
  // Only the person's own sensitive-data tick is missing: that is given with Confirm, on the review page.
  const onlyTheTick =
    status === 'needs_input' && issues.length === 0 && evaluation.needs_confirmation.every((request) => request.field === 'sensitive_data_confirmed');
  const words = onlyTheTick ? 'Ready for you to confirm, with the sensitive-data confirmation below.' : STATUS_WORDS[status];
  return (
    <div class={`validation validation-${status}`} data-testid="validation">
      <p>
        <strong>Status: {onlyTheTick ? 'ready for your confirmation' : status.replace('_', ' ')}.</strong> <span data-testid="validation-words">{words}</span>
      </p>
      {issues.length > 0 && (
        <ul class="issues" data-testid="issues" {...(alert ? { role: 'alert' } : {})}>
          {issues.map((issue, index) => (
            <li key={index}>
              {issue.message}
              {issue.rule && ` (${issue.rule})`}
            </li>
          ))}
        </ul>
      )}
      {evaluation.needs_confirmation.length > 0 && (
        <>
          <h3>What you must decide</h3>
          <ul data-testid="needs-confirmation">
            {evaluation.needs_confirmation.map((request) => (
              <li key={request.field}>
                {answering && request.choices && request.choices.length > 0 && Object.hasOwn(ANSWERABLE_QUESTIONS, request.field) ? (
                  <AnswerForm answering={answering} field={request.field} question={request.question} choices={request.choices} />
                ) : (
                  <>
                    {request.question}
                    {request.choices && request.choices.length > 0 && (
                      <span class="facts"> Choices: {request.choices.map((choice) => choice.label).join('; ')}.</span>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function shownValue(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What the metadata, the rules or the signed-in person decided, with the rule and why. */
export function ResolvedValuesTable({ evaluation }: { evaluation: DraftEvaluation }) {
  return (
    <table data-testid="resolved-values">
      <caption>What the system resolved</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Value</th>
          <th scope="col">Decided by</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {evaluation.resolved_values.map((value) => (
          <tr key={value.field}>
            <td>
              <code>{value.field}</code>
            </td>
            <td>{shownValue(value.value)}</td>
            <td>{value.rule ? `rule ${value.rule}` : value.source === 'principal' ? 'your profile' : 'the catalog'}</td>
            <td>{value.reason ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the rules suggest and the person may change, and why. */
export function RecommendationsTable({ evaluation }: { evaluation: DraftEvaluation }) {
  if (evaluation.recommendations.length === 0) return <p>The rules recommend nothing further.</p>;
  return (
    <table data-testid="recommendations">
      <caption>What the system recommends</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Recommended</th>
          <th scope="col">Why</th>
          <th scope="col">Rule</th>
        </tr>
      </thead>
      <tbody>
        {evaluation.recommendations.map((recommendation) => (
          <tr key={recommendation.field}>
            <td>
              <code>{recommendation.field}</code>
            </td>
            <td>{shownValue(recommendation.value)}</td>
            <td>{recommendation.reason}</td>
            <td>{recommendation.rule}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The rules `evaluation` cites, each with its summary and the policy text it comes from. */
export function RulesCited({ evaluation, rules }: { evaluation: DraftEvaluation; rules: readonly Rule[] }) {
  const cited = new Set<string>([
    ...evaluation.resolved_values.flatMap((value) => (value.rule ? [value.rule] : [])),
    ...evaluation.recommendations.map((recommendation) => recommendation.rule),
    ...evaluation.validation.issues.flatMap((issue) => (issue.rule ? [issue.rule] : [])),
  ]);
  const shown = rules.filter((rule) => cited.has(rule.id));
  if (shown.length === 0) return null;
  return (
    <details>
      <summary>
        The rules cited ({evaluation.evidence.rule_set}, metadata {evaluation.evidence.metadata_version})
      </summary>
      <dl>
        {shown.map((rule) => (
          <Fragment key={rule.id}>
            <dt>{rule.id}</dt>
            <dd>
              {rule.summary}{' '}
              <span class="facts">
                ({rule.source.document}, section {rule.source.section})
              </span>
            </dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}

/**
 * A question the person answers here (review page): its choices as radio
 * buttons, or checkboxes where several may be chosen, posted with the draft
 * version shown to `/drafts/:id/answer`, which makes a new version changed
 * by the person. Test id `answer-<field>`.
 */
function AnswerForm({
  answering,
  field,
  question,
  choices,
}: {
  answering: QuestionAnswering;
  field: string;
  question: string;
  choices: Array<{ id: string; label: string }>;
}) {
  const several = ANSWERABLE_QUESTIONS[field]?.several === true;
  return (
    <form method="post" action={`/drafts/${encodeURIComponent(answering.draftId)}/answer`} data-testid={`answer-${field}`}>
      <input type="hidden" name="csrf_token" value={answering.csrfToken} />
      <input type="hidden" name="draft_version" value={String(answering.version)} />
      <input type="hidden" name="field" value={field} />
      <fieldset>
        <legend>{question}</legend>
        {choices.map((choice) => (
          <label key={choice.id} class="choice">
            <input type={several ? 'checkbox' : 'radio'} name="choice" value={choice.id} required={!several} /> {choice.label}
          </label>
        ))}
      </fieldset>
      <button type="submit">Use this answer</button>
    </form>
  );
}
