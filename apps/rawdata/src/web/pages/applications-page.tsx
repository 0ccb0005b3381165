/**
 * @module The person's applications (`/applications`) and one application
 * (`/applications/:id`): its status, target, items, the payload exactly as
 * submitted, each item's generated code and the operator's decision note.
 */
// biome-ignore-all lint/a11y/noNoninteractiveTabindex: a <pre> that may scroll sideways takes the focus so a keyboard can scroll it (axe: scrollable-region-focusable)
// biome-ignore-all lint/a11y/useAriaPropsSupportedByRole: the focusable <pre> is named for a screen reader landing on it
import type { ApplicationRecord, ApplicationSummary } from '../../domain/application-records.ts';
import { GeneratedCode } from './generated-code.tsx';
import { shownTime } from '../site-time.ts';

const STATUS_WORDS = { submitted: 'submitted, waiting for an operator', approved: 'approved', rejected: 'rejected' } as const;

/** An application's status in words. */
export function statusWords(status: ApplicationSummary['status']): string {
  return STATUS_WORDS[status];
}

/** The list of the person's applications, newest first. */
export function ApplicationsPage({ applications }: { applications: ApplicationSummary[] }) {
  return (
    <section>
      <h1>My applications</h1>
      {applications.length === 0 ? (
        <p>
          No applications yet. <a href="/request">Start a request</a>, or ask your agent to prepare one.
        </p>
      ) : (
        <table data-testid="applications">
          <caption>Your applications, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Status</th>
              <th scope="col">Submitted</th>
              <th scope="col">Tables</th>
            </tr>
          </thead>
          <tbody>
            {applications.map((application) => (
              <tr key={application.application_id} data-testid="application-row">
                <td>
                  <a href={`/applications/${encodeURIComponent(application.application_id)}`}>{application.project_name}</a>
                </td>
                <td data-testid="application-status">{statusWords(application.status)}</td>
                <td>
                  <time dateTime={application.submitted_at}>{shownTime(application.submitted_at)}</time>
                </td>
                <td>{application.items.map((item) => item.source_table).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One application in full. */
export function ApplicationPage({ application }: { application: ApplicationRecord }) {
  const { payload } = application;
  return (
    <section>
      <h1>Application {application.project_name}</h1>
      <dl class="facts-list">
        <dt>Application</dt>
        <dd data-testid="application-id">{application.application_id}</dd>
        <dt>Status</dt>
        <dd data-testid="application-status">{statusWords(application.status)}</dd>
        <dt>Submitted</dt>
        <dd>
          <time dateTime={application.submitted_at}>{shownTime(application.submitted_at)}</time> (draft version {application.draft.version})
        </dd>
        {application.decided_at && (
          <>
            <dt>Decided</dt>
            <dd>
              <time dateTime={application.decided_at}>{shownTime(application.decided_at)}</time>
            </dd>
          </>
        )}
        <dt>Operator's note</dt>
        <dd data-testid="decision-note">{application.decision_note ?? 'none'}</dd>
        <dt>Target</dt>
        <dd data-testid="application-target">
          {payload.target ? `${payload.target.environment} / ${payload.target.database} / schema ${payload.target.schema}` : 'none'}
        </dd>
        <dt>Rules and metadata</dt>
        <dd>
          {application.rule_set}, metadata {application.metadata_version}
        </dd>
      </dl>
      <h2>Items and their code</h2>
      {application.generated_code.map((code, index) => (
        <article key={code.source_table} class="item" data-testid="application-item">
          <h3>
            <code>{code.source_table}</code> to <code>{application.items[index]?.target_table ?? code.source_table}</code>
          </h3>
          <GeneratedCode code={code} />
        </article>
      ))}
      <h2 id="submitted-payload-heading">The payload as submitted</h2>
      <pre aria-labelledby="submitted-payload-heading" data-testid="payload-json" tabIndex={0}>
        {application.payload_json}
      </pre>
    </section>
  );
}
