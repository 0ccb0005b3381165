/**
 * @module The operators' queue (`/operator`): the submitted applications,
 * oldest first, each with Approve (a note if they like) and Reject (a note
 * saying why, required).
 */
import type { OperatorQueueEntry } from '../../domain/application-records.ts';
import { shownTime } from '../site-time.ts';

/** What the queue shows. */
export type OperatorPageProps = { csrfToken: string; queue: OperatorQueueEntry[]; problem?: string };

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

function QueueEntry({ csrfToken, application }: { csrfToken: string; application: OperatorQueueEntry }) {
  const id = application.application_id;
  const action = `/operator/applications/${encodeURIComponent(id)}/decision`;
  return (
    <article class="item" data-testid="queue-entry" data-application={id}>
      <h2>
        <a href={`/applications/${encodeURIComponent(id)}`}>{application.project_name}</a>
      </h2>
      <p>
        Submitted <time dateTime={application.submitted_at}>{shownTime(application.submitted_at)}</time>:{' '}
        {application.items.map((item) => item.source_table).join(', ')}
      </p>
      <dl class="queue-facts" data-testid="queue-facts">
        <dt>Applicant's unit</dt>
        <dd>{application.applicant_unit ?? 'none given'}</dd>
        <dt>Into</dt>
        <dd>{application.target ? `${application.target.database}.${application.target.schema} (${application.target.environment})` : 'no target'}</dd>
        <dt>Access for</dt>
        <dd>{application.permission_targets.join(', ')}</dd>
        <dt>Why</dt>
        <dd data-testid="queue-reason">{application.reason}</dd>
      </dl>
      {application.own ? (
        <p data-testid="own-application">This is your own application: another operator decides it.</p>
      ) : (
        <DecisionForms csrfToken={csrfToken} id={id} projectName={application.project_name} action={action} />
      )}
    </article>
  );
}

function DecisionForms({ csrfToken, id, projectName, action }: { csrfToken: string; id: string; projectName: string; action: string }) {
  return (
    <div class="decision-forms">
      <form method="post" action={action}>
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="decision" value="approved" />
        <label for={`approve-note-${id}`}>Note (optional)</label>
        <textarea id={`approve-note-${id}`} name="note" maxLength={500} rows={2} />
        <button type="submit" data-testid="approve-button">
          Approve {projectName}
        </button>
      </form>
      <form method="post" action={action}>
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="decision" value="rejected" />
        <label for={`reject-note-${id}`}>Why it is rejected (required)</label>
        <textarea id={`reject-note-${id}`} name="note" maxLength={500} rows={2} required />
        <button type="submit" class="danger" data-testid="reject-button">
          Reject {projectName}
        </button>
      </form>
    </div>
  );
}
