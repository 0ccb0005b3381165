/**
 * @module The review page and the person's Confirm: `GET /drafts/:id/review`
 * (the address a draft's confirmationUrl names; signed out, it sends the
 * person to sign in and back) and `POST /drafts/:id/confirm`, the site's
 * step approve_application_draft, which shows the confirmation code once.
 * A refused Confirm shows the review again with why (409 stale version, 400
 * missing tick); a draft already submitted says which application it became.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApplicationPayload, DraftChoices } from '../domain/application-draft.ts';
import { findApplicationDraft, listDraftRevisions, reviseApplicationDraft, type DraftRevision } from '../domain/application-drafts.ts';
import { reviewAnswerChange } from '../domain/review-answers.ts';
import { findApplicationOfDraft } from '../domain/application-records.ts';
import { CodeGenerationError, itemCode } from '../domain/code-generation.ts';
import { confirmReadiness } from '../domain/person-confirmations.ts';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { formFieldsFromChoices, requestFormView } from '../domain/request-form.ts';
import { RULES } from '../domain/rule-set.ts';
import { ConfirmationCodePage, ReviewPage, SubmittedDraftPage, type DraftChangeSummary, type ReviewItem } from '../web/pages/review-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import { personOf, problemPage, refusedPost, signInFirst, statusOfFailure } from './page-access.tsx';
import type { PageRouteDeps } from './page-routes.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { hasSessionCsrfToken } from './site-session.ts';

/** The review and Confirm routes. */
export function draftRoutes(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx } = deps;
  const routes = new Hono<RawdataEnv>();
  routes.get('/drafts/:id/review', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return signInFirst(c);
    return showReview(c, ctx, person, c.req.param('id'));
  });
  // The person answers a question of the evaluation on the review page: a new version, changed by the person; back to the review.
  routes.post('/drafts/:id/answer', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const draftId = c.req.param('id');
    const given = form['choice'];
    const choices = (Array.isArray(given) ? given : given === undefined ? [] : [given]).filter((choice): choice is string => typeof choice === 'string');
    const changes = reviewAnswerChange(typeof form['field'] === 'string' ? form['field'] : '', choices);
    if (changes === null) {
      return showReview(c, ctx, person, draftId, { problem: { message: 'Choose an answer to the question, then press Use this answer.' }, status: 400 });
    }
    const request = { draftId, draftVersion: Number(form['draft_version']), changes };
    const revised = await reviseApplicationDraft(ctx, c.get('principal'), request, { by: 'person' });
    if (!revised.ok) {
      const { failure } = revised;
      const problem = { message: failure.message, ...(failure.nextAction !== undefined && { nextAction: failure.nextAction }) };
      return showReview(c, ctx, person, draftId, { problem, status: statusOfFailure(failure.code) });
    }
    return c.redirect(`/drafts/${encodeURIComponent(draftId)}/review`, 303);
  });
  routes.post('/drafts/:id/confirm', async (c) => {
    const form = await c.req.parseBody();
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const draftId = c.req.param('id');
    const input = { draft_id: draftId, draft_version: Number(form['draft_version']), sensitive_data_confirmed: form['sensitive_data_confirmed'] === 'on' };
    const confirmed = await deps.pipeline.invoke({ tool: 'approve_application_draft', input, principal: c.get('principal'), surface: 'ui' });
    if (!confirmed.ok) {
      const problem = { message: confirmed.message, ...(confirmed.nextAction !== undefined && { nextAction: confirmed.nextAction }) };
      return showReview(c, ctx, person, draftId, { problem, status: statusOfFailure(confirmed.code) });
    }
    const data = confirmed.data as { confirmationToken: string; draft: { version: number }; expiresAt: string };
    const page = <ConfirmationCodePage code={data.confirmationToken} version={data.draft.version} expiresAt={data.expiresAt} />;
    return c.html(renderPage({ title: 'Your confirmation code', person, children: page }), 200, { 'Cache-Control': 'no-store' });
  });
  return routes;
}

type Refusal = { problem: { message: string; nextAction?: string }; status: ContentfulStatusCode };

async function showReview(c: Context<RawdataEnv>, ctx: RawdataContext, person: NonNullable<SignedInPerson>, draftId: string, refusal?: Refusal) {
  const principal = c.get('principal');
  const found = await findApplicationDraft(ctx, principal, draftId);
  if (!found.ok) {
    if (found.failure.code !== 'NOT_FOUND')
      return problemPage(c, person, statusOfFailure(found.failure.code), { title: 'This draft cannot be shown', message: found.failure.message });
    const became = await findApplicationOfDraft(ctx, principal, draftId);
    if (became.ok && became.value) {
      const page = <SubmittedDraftPage applicationId={became.value.application_id} version={became.value.draft_version} />;
      return c.html(renderPage({ title: 'Draft submitted', person, children: page }), refusal ? 409 : 200);
    }
    return problemPage(c, person, 404, {
      title: 'No such draft',
      message: 'No draft of yours has this address: it may have expired, or it was prepared for another account.',
      link: { href: '/request', text: 'Start a new request' },
    });
  }
  const { draft, evaluation, content, analyst } = found.value;
  const revisions = await listDraftRevisions(ctx, analyst.accountId, draft.id);
  const notice = requestFormView(formFieldsFromChoices(content.choices), { metadata: ctx.metadata, applicant: analyst.applicant }).sensitive_notice;
  const page = (
    <ReviewPage
      csrfToken={person.csrfToken}
      draftId={draft.id}
      version={draft.version}
      evaluation={evaluation}
      payload={content.payload}
      readiness={confirmReadiness(evaluation)}
      sensitiveNotice={notice.text}
      items={reviewItems(content.payload)}
      changes={changesOf(revisions, draft.version, content.choices)}
      history={revisions.map(({ content: _content, ...revision }) => revision)}
      rules={RULES}
      {...(refusal && { problem: refusal.problem })}
    />
  );
  return c.html(renderPage({ title: `Review draft version ${draft.version}`, person, children: page }), refusal?.status ?? 200, {
    'Cache-Control': 'no-store',
  });
}

/** Each payload item with the code the submission would generate for it (itemCode), or why there is none yet. */
function reviewItems(payload: ApplicationPayload): ReviewItem[] {
  return payload.items.map((item, index) => {
    const base = { source_table: item.source_table, target_table: item.target_table };
    if (payload.target === null) return { ...base, code: null, codeProblem: 'The code is made once the target environment and database are decided.' };
    try {
      return { ...base, code: itemCode(item, payload.target, index), codeProblem: null };
    } catch (error) {
      if (error instanceof CodeGenerationError) return { ...base, code: null, codeProblem: `No code yet: ${error.reason}` };
      throw error;
    }
  });
}

/** What changed from the previous version to `version` (from the revisions kept), in words the page shows. */
function changesOf(
  revisions: Array<DraftRevision & { content: { choices: DraftChoices } }>,
  version: number,
  choices: DraftChoices,
): DraftChangeSummary | null {
  const current = revisions.find((revision) => revision.version === version);
  if (!current) return null;
  const previous = revisions.find((revision) => revision.version === version - 1);
  if (!previous) return { changedBy: current.changedBy, previousVersion: null, fields: [] };
  const fields = current.changedFields.map((field) => ({ field, before: choiceText(previous.content.choices, field), after: choiceText(choices, field) }));
  return { changedBy: current.changedBy, previousVersion: previous.version, fields };
}

/** A choice's value (dotted path, e.g. `intent.reason`) as text. */
function choiceText(choices: DraftChoices, path: string): string {
  const value = path
    .split('.')
    .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), choices);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (value === null || value === undefined) return 'not chosen';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}
