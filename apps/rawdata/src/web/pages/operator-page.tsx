/**
 * @module The operators' queue (`/operator`): the submitted applications,
 * oldest first, each with Approve (a note if they like) and Reject (a note
 * saying why, required).
 */
import type { ApplicationSummary } from '../../domain/application-records.ts';
import { shownTime } from './review-page.tsx';

/** What the queue shows. */
export type OperatorPageProps = { csrfToken: string; queue: ApplicationSummary[]; problem?: string };

/** The queue. */
export function OperatorPage({ csrfToken, queue, problem }: OperatorPageProps) {
  return (
    <section>
      <h1>Operator queue</h1>
      {problem && (
        <p role="alert" class="problem" data-testid="operator-problem">
          {problem}
        </p>
      )}
      {queue.length === 0 ? (
        <p data-testid="queue-empty">No application is waiting for a decision.</p>
      ) : (
        queue.map((application) => <QueueEntry key={application.application_id} csrfToken={csrfToken} application={application} />)
      )}
    </section>
  );
}

function QueueEntry({ csrfToken, application }: { csrfToken: string; application: ApplicationSummary }) {
  const id = application.application_id;
  const action = `/operator/applications/${encodeURIComponent(id)}/decision`;
  return (
    <article class="item" data-testid="queue-entry" data-application={id}>
      <h2>
        <a href={`/applications/${encodeURIComponent(id)}`}>{application.project_name}</a>
      </h2>
      <p>
        Submitted <time dateTime={application.submitted_at}>{shownTime(application.submitted_at)}</time>: {application.items.map((item) => item.source_table).join(', ')}
      </p>
      <div class="decision-forms">
        <form method="post" action={action}>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="decision" value="approved" />
          <label for={`approve-note-${id}`}>Note (optional)</label>
          <textarea id={`approve-note-${id}`} name="note" maxLength={500} rows={2} />
          <button type="submit" data-testid="approve-button">
            Approve {application.project_name}
          </button>
        </form>
        <form method="post" action={action}>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="decision" value="rejected" />
          <label for={`reject-note-${id}`}>Why it is rejected (required)</label>
          <textarea id={`reject-note-${id}`} name="note" maxLength={500} rows={2} required />
          <button type="submit" class="danger" data-testid="reject-button">
            Reject {application.project_name}
          </button>
        </form>
      </div>
    </article>
  );
}
