/**
 * @module The request form's routes: `GET /request` (empty, or the choices
 * of one of the person's drafts with `?draft=`), `POST /request` (Update:
 * the form again with the rules applied; Send: a draft by the site's step
 * prepare_draft_from_form, then 303 to its review page) and
 * `POST /request/form-view` (the linked fields alone, the HTML the page's
 * script puts in place). Every linked field comes from requestFormView.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { renderToString } from 'preact-render-to-string';
import type { Applicant } from '../domain/application-draft.ts';
import { findApplicationDraft } from '../domain/application-drafts.ts';
import { findAnalyst } from '../domain/analysts.ts';
import { PERMISSION_GROUPS } from '../domain/permission-groups.ts';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { choicesFromForm, formFieldsFromChoices, requestFormView, type RequestFormFields } from '../domain/request-form.ts';
import { UPDATE_FREQUENCIES } from '../domain/source-metadata.ts';
import { describeContext } from '../domain/table-context.ts';
import { fieldList, fieldText, LinkedFields, RequestFormPage, type CatalogEntry } from '../web/pages/request-form-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import { personOf, problemPage, refusedPost, signInFirst, statusOfFailure } from './page-access.tsx';
import type { PageRouteDeps } from './page-routes.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { hasSessionCsrfToken } from './site-session.ts';

/** Where the built enhancement script of the request form is served. */
export const REQUEST_FORM_SCRIPT = '/assets/request-form.js';

/** The routes of the request form. */
export function requestRoutes(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx } = deps;
  const routes = new Hono<RawdataEnv>();
  routes.get('/request', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return signInFirst(c);
    const applicant = await applicantOf(c, ctx);
    if (!applicant) return noProfile(c, person);
    const draftId = c.req.query('draft');
    const draft = draftId ? await findApplicationDraft(ctx, c.get('principal'), draftId) : null;
    const fields: RequestFormFields = draft?.ok ? { ...formFieldsFromChoices(draft.value.content.choices), sensitive_data_confirmed: '' } : {};
    return renderForm(c, { ctx, person, applicant, fields });
  });
  routes.post('/request', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const applicant = await applicantOf(c, ctx);
    if (!applicant) return noProfile(c, person);
    const fields = postedFields(form);
    if (form['action'] !== 'send') return renderForm(c, { ctx, person, applicant, fields });
    const choices = choicesFromForm(fields);
    if (!choices.ok) return renderForm(c, { ctx, person, applicant, fields, problem: choices.failure, status: 400 });
    const prepared = await deps.pipeline.invoke({
      tool: 'prepare_draft_from_form',
      input: { choices: choices.value },
      principal: c.get('principal'),
      surface: 'ui',
    });
    if (!prepared.ok) return renderForm(c, { ctx, person, applicant, fields, problem: prepared, status: statusOfFailure(prepared.code) });
    const { draft_id: draftId } = prepared.data as { draft_id: string };
    return c.redirect(`/drafts/${encodeURIComponent(draftId)}/review`, 303);
  });
  routes.post('/request/form-view', async (c) => {
    const form = await c.req.parseBody({ all: true });
    if (!(await personOf(c, ctx)) || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const applicant = await applicantOf(c, ctx);
    if (!applicant) return c.text('This account has no data platform profile.', 403);
    const view = requestFormView(postedFields(form), { metadata: ctx.metadata, applicant });
    return c.html(renderToString(<LinkedFields view={view} />), 200, { 'Cache-Control': 'no-store' });
  });
  return routes;
}

async function applicantOf(c: Context<RawdataEnv>, ctx: RawdataContext): Promise<Applicant | null> {
  const analyst = await findAnalyst(ctx, c.get('principal'));
  return analyst.ok ? analyst.value.applicant : null;
}

function noProfile(c: Context<RawdataEnv>, person: SignedInPerson) {
  return problemPage(c, person, 403, {
    title: 'No data platform profile',
    message: 'This account has no data platform profile, so it may not request data copies. The data platform team must give it one first.',
  });
}

/**
 * The posted form as the request form's fields: text values only, and never
 * the sensitive-data tick (only the review page sets it, rule RD-SENSITIVE-CONFIRM).
 */
function postedFields(form: Record<string, unknown>): RequestFormFields {
  const fields: RequestFormFields = {};
  for (const [name, value] of Object.entries(form)) {
    if (name === 'csrf_token' || name === 'action' || name === 'sensitive_data_confirmed') continue;
    if (typeof value === 'string') fields[name] = value;
    else if (Array.isArray(value)) fields[name] = value.filter((entry): entry is string => typeof entry === 'string');
  }
  return fields;
}

type FormRender = {
  ctx: RawdataContext;
  person: NonNullable<SignedInPerson>;
  applicant: Applicant;
  fields: RequestFormFields;
  problem?: { message: string; field?: string };
  status?: ContentfulStatusCode;
};

function renderForm(c: Context<RawdataEnv>, { ctx, person, applicant, fields, problem, status = 200 }: FormRender) {
  const ruleContext = { metadata: ctx.metadata, applicant };
  const query = fieldText(fields, 'table_query').trim().slice(0, 200);
  const chosen = new Set(fieldList(fields, 'source_tables'));
  const matches = query === '' ? null : new Set(describeContext({ query }, ruleContext).tables.map((table) => table.name));
  const catalog: CatalogEntry[] = ctx.metadata.tables
    .filter((table) => matches === null || matches.has(table.name) || chosen.has(table.name))
    .map((table) => ({
      name: table.name,
      description: table.description,
      data_level: table.dataLevel,
      update_method: table.updateMethod,
      update_frequency: table.updateFrequency,
      owner_unit: table.ownerUnit,
    }));
  const page = (
    <RequestFormPage
      csrfToken={person.csrfToken}
      fields={fields}
      view={requestFormView(fields, ruleContext)}
      catalog={catalog}
      search={{ query, total: matches === null ? ctx.metadata.tables.length : matches.size }}
      permissionGroups={PERMISSION_GROUPS}
      frequencies={UPDATE_FREQUENCIES}
      {...(problem && { problem: { message: problem.message, ...(problem.field !== undefined && { field: problem.field }) } })}
    />
  );
  return c.html(renderPage({ title: 'New request', person, scripts: [REQUEST_FORM_SCRIPT], children: page }), status, { 'Cache-Control': 'no-store' });
}
