/**
 * @module The review page a confirmationUrl opens (`/drafts/:id/review`):
 * the draft version, what the system resolved, recommends and needs the
 * person to decide, validation, each item's generated code, the payload as
 * it would be submitted, what changed since the previous version and who
 * changed it, and the Confirm form (with the sensitive-data tick when the
 * draft holds classified or restricted data). Also the page that shows the
 * confirmation code once, and the page of a draft already submitted.
 */
// biome-ignore-all lint/a11y/noNoninteractiveTabindex: a <pre> that may scroll sideways takes the focus so a keyboard can scroll it (axe: scrollable-region-focusable)
// biome-ignore-all lint/a11y/useAriaPropsSupportedByRole: the focusable <pre> is named for a screen reader landing on it
import { shownTime } from '../site-time.ts';
import type { ApplicationPayload, DraftEvaluation } from '../../domain/application-draft.ts';
import type { DraftAuthor, DraftRevision } from '../../domain/application-drafts.ts';
import type { GeneratedItemCode } from '../../domain/code-generation.ts';
import type { ConfirmReadiness } from '../../domain/person-confirmations.ts';
import type { Rule } from '../../domain/rule-set.ts';
import { EvaluationSummary, RecommendationsTable, ResolvedValuesTable, RulesCited } from './evaluation-parts.tsx';
import { GeneratedCode } from './generated-code.tsx';

/** One item of the draft with its generated code, or why there is none yet. */
export type ReviewItem = { source_table: string; target_table: string; code: GeneratedItemCode | null; codeProblem: string | null };

/** What changed from the previous version to this one, and who changed it. */
export type DraftChangeSummary = { changedBy: DraftAuthor; previousVersion: number | null; fields: Array<{ field: string; before: string; after: string }> };

/** What the review page shows. */
export type ReviewPageProps = {
  csrfToken: string;
  draftId: string;
  version: number;
  evaluation: DraftEvaluation;
  /** The payload the version holds: what a submission sends. */
  payload: ApplicationPayload;
  readiness: ConfirmReadiness;
  /** The sensitive-data notice the tick confirms (null when the draft holds no classified or restricted data). */
  sensitiveNotice: string | null;
  items: ReviewItem[];
  changes: DraftChangeSummary | null;
  history: DraftRevision[];
  rules: readonly Rule[];
  /** Why the last Confirm was refused. */
  problem?: { message: string; nextAction?: string };
};

/** Who made a version, in words. */
export const AUTHOR_WORDS: Record<DraftAuthor, string> = { agent: 'your agent', person: 'you, on this page', form: 'you, in the request form' };

/** The review page. */
export function ReviewPage(props: ReviewPageProps) {
  const { version, evaluation, payload, problem } = props;
  return (
    <section>
      <h1>Review your data-copy request</h1>
      <p class="draft-version">
        Draft version <strong data-testid="draft-version">{version}</strong> of project <strong>{payload.project_name}</strong>.
      </p>
      {problem && (
        <div role="alert" class="problem" data-testid="review-problem">
          <p>{problem.message}</p>
          {problem.nextAction && <p>{problem.nextAction}</p>}
        </div>
      )}
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">Where this draft stands</h2>
        <EvaluationSummary evaluation={evaluation} alert answering={{ csrfToken: props.csrfToken, draftId: props.draftId, version }} />
      </section>
      <ChangesSection {...props} />
      <h2>What the system worked out</h2>
      <ResolvedValuesTable evaluation={evaluation} />
      <RecommendationsTable evaluation={evaluation} />
      <RulesCited evaluation={evaluation} rules={props.rules} />
      <ItemsSection items={props.items} />
      <h2 id="payload-heading">The application as it would be submitted</h2>
      <pre aria-labelledby="payload-heading" data-testid="payload-preview" tabIndex={0}>
        {JSON.stringify(payload, null, 2)}
      </pre>
      <ConfirmSection {...props} />
    </section>
  );
}

function ChangesSection({ version, changes, history }: ReviewPageProps) {
  return (
    <section aria-labelledby="changes-heading" data-testid="changes">
      <h2 id="changes-heading">What changed</h2>
      {changes === null || changes.previousVersion === null ? (
        <p data-testid="changes-summary">This is the first version, prepared by {AUTHOR_WORDS[changes?.changedBy ?? 'agent']}.</p>
      ) : (
        <>
          <p data-testid="changes-summary">
            Since version {changes.previousVersion}, {AUTHOR_WORDS[changes.changedBy]} changed{' '}
            {changes.fields.length === 0 ? 'nothing you chose' : changes.fields.length === 1 ? 'one field' : `${changes.fields.length} fields`} to make version{' '}
            {version}.
          </p>
          {changes.fields.length > 0 && (
            <table data-testid="changed-fields">
              <caption>Changed since version {changes.previousVersion}</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Was</th>
                  <th scope="col">Now</th>
                </tr>
              </thead>
              <tbody>
                {changes.fields.map((change) => (
                  <tr key={change.field}>
                    <td>
                      <code>{change.field}</code>
                    </td>
                    <td>{change.before}</td>
                    <td>{change.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {history.length > 1 && (
        <details>
          <summary>Every version</summary>
          <ol data-testid="history">
            {history.map((revision) => (
              <li key={revision.version} value={revision.version}>
                Version {revision.version} by {AUTHOR_WORDS[revision.changedBy]} at <time dateTime={revision.createdAt}>{shownTime(revision.createdAt)}</time>
                {revision.changedFields.length > 0 && `: ${revision.changedFields.join(', ')}`}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

function ItemsSection({ items }: { items: ReviewItem[] }) {
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading">Each table and its code</h2>
      {items.map((item) => (
        <article key={item.source_table} class="item" data-testid="review-item">
          <h3>
            <code>{item.source_table}</code> to <code>{item.target_table}</code>
          </h3>
          {item.code ? <GeneratedCode code={item.code} /> : <p class="hint">{item.codeProblem}</p>}
        </article>
      ))}
    </section>
  );
}

function ConfirmSection({ csrfToken, draftId, version, readiness, sensitiveNotice }: ReviewPageProps) {
  if (readiness.state === 'blocked') {
    return (
      <section aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Confirm</h2>
        <p role="alert" class="problem" data-testid="blocked-notice">
          This draft cannot be confirmed: {readiness.message} Hand it to a person (the data platform team) to resolve.
        </p>
      </section>
    );
  }
  if (readiness.state === 'incomplete') {
    return (
      <section aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Confirm</h2>
        <p data-testid="incomplete-notice">
          {readiness.message} Ask your agent to revise the draft with your answer, or{' '}
          <a href={`/request?draft=${encodeURIComponent(draftId)}`}>start again from the request form</a>.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="confirm-heading">
      <h2 id="confirm-heading">Confirm</h2>
      <form method="post" action={`/drafts/${encodeURIComponent(draftId)}/confirm`} data-testid="confirm-form">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="draft_version" value={String(version)} />
        {readiness.state === 'needs_tick' && (
          <label class="tick">
            <input type="checkbox" name="sensitive_data_confirmed" value="on" required data-testid="sensitive-tick" /> I confirm: {sensitiveNotice}
          </label>
        )}
        <p>Confirming gives you a one-time code for your agent; the agent then submits exactly this version. Nothing is submitted by this button.</p>
        <button type="submit" data-testid="confirm-button">
          Confirm version {version}
        </button>
      </form>
    </section>
  );
}

/**
 * The page after Confirm: the confirmation code, shown this once. Confirming
 * again (a reload of this page posts Confirm again) makes a new code and the
 * one shown before stops working; the page says so.
 */
export function ConfirmationCodePage({ code, version, expiresAt }: { code: string; version: number; expiresAt: string }) {
  return (
    <section>
      <h1>Your confirmation code</h1>
      <div role="status">
        <p>
          This code confirms version <strong data-testid="confirmed-version">{version}</strong> of your draft. It works once, until{' '}
          <time dateTime={expiresAt} data-testid="code-expires">
            {shownTime(expiresAt)}
          </time>
          , and is not shown again.
        </p>
        <p data-testid="code-replaced">
          Reloading this page or confirming again makes a new code, and this one stops working: give your agent the code you saw last.
        </p>
        <output class="secret" data-testid="confirmation-code">
          {code}
        </output>
        <p data-testid="code-instruction">Give this code to your agent to submit version {version}.</p>
      </div>
      <p>
        Once your agent has submitted it, the application is listed under <a href="/applications">My applications</a>.
      </p>
    </section>
  );
}

/** The review address of a draft that was submitted: which application it became. */
export function SubmittedDraftPage({ applicationId, version }: { applicationId: string; version: number }) {
  return (
    <section>
      <h1>This draft was submitted</h1>
      <p data-testid="submitted-as">
        Version {version} of this draft was submitted as application <a href={`/applications/${encodeURIComponent(applicationId)}`}>{applicationId}</a>. There
        is nothing left to review or confirm.
      </p>
    </section>
  );
}
