/**
 * @module
 * The state of the registration page (`/events/:id/register`), as one value
 * and the actions that change it: the two fields with who filled each (the
 * person or their agent), the step (form, review, registered) and where focus
 * goes next. Pure: the page (pages/register-page.tsx) renders it, its
 * controls (page-controls.ts, `RegisterControls`) read it.
 *
 * The rule it keeps: what the person typed is theirs. An agent's fill never
 * replaces a field the person typed in; the page tool refuses such a call
 * before anything is sent (route-tools.ts), and this reducer keeps the
 * person's value should a fill arrive anyway (the person typed while the
 * call was on its way).
 */
import { attendeeFieldProblem } from '../domain/attendee-field-problems.ts';
import type { RegistrationDraft } from './api-shapes.ts';

/** The form's two fields. */
export type AttendeeField = 'name' | 'email';

/** A value per field, as typed (untrimmed) or as reviewed (trimmed). */
export type AttendeeValues = Record<AttendeeField, string>;

/** Who put a field's current value there; null while it is empty. */
export type FieldSource = 'person' | 'agent' | null;

/** The step on screen. */
export type RegisterStep =
  | { kind: 'form' }
  /** `reviewed` is what the review lists, and so exactly what Submit sends. */
  | { kind: 'review'; reviewed: AttendeeValues; submitting: boolean; error: string | null }
  | { kind: 'registered'; eventTitle: string };

/** Where the page moves focus after a change (each request a new object, so the same target twice moves focus twice). */
export type FocusRequest = { target: 'name' | 'email' | 'review-button' | 'review-heading' | 'error' | 'success' };

/** Everything the registration page shows that can change. */
export type RegisterState = {
  values: AttendeeValues;
  sources: Record<AttendeeField, FieldSource>;
  /** Whether the agent filled anything (a stored draft or the page tool): the page says so. */
  preparedByAgent: boolean;
  /**
   * The version of the agent's draft this page shows (from the server, or the
   * page tool's latest answer), or null when there is none. Submit confirms
   * exactly this version: if the agent changed the draft elsewhere since, the
   * server refuses and says what changed.
   */
  draft: DraftShown | null;
  step: RegisterStep;
  /** Why Review refused a field, in words for the person, said next to it; cleared when the person types in it. */
  problems: Partial<Record<AttendeeField, string>>;
  focus: FocusRequest | null;
};

/** A draft's id and version, as the page shows it. */
export type DraftShown = { id: string; version: number };

/** What can happen on the page. */
export type RegisterAction =
  | { type: 'person-typed'; field: AttendeeField; value: string }
  | { type: 'agent-filled'; values: Partial<AttendeeValues>; draft?: DraftShown | undefined }
  | { type: 'review' }
  | { type: 'back' }
  | { type: 'submitting' }
  | { type: 'refused'; message: string }
  | { type: 'registered'; eventTitle: string };

const FIELDS: readonly AttendeeField[] = ['name', 'email'];

/**
 * The state the page opens in: the form step, filled with the session's
 * draft when an agent prepared one (its fields marked the agent's).
 */
export function initialRegisterState(draft: RegistrationDraft | null): RegisterState {
  const name = draft?.name ?? '';
  const email = draft?.email ?? '';
  return {
    values: { name, email },
    sources: { name: name === '' ? null : 'agent', email: email === '' ? null : 'agent' },
    preparedByAgent: name !== '' || email !== '',
    draft: draft ? { id: draft.id, version: draft.version } : null,
    step: { kind: 'form' },
    problems: {},
    focus: null,
  };
}

/**
 * The state after `action`. Actions that make no sense in the current step
 * (Review while registered, Submit's answer after Back) leave it unchanged.
 *
 * - `person-typed`: the field is the person's (or nobody's once emptied).
 * - `agent-filled`: sets each given field the person has not typed in, marks
 *   it the agent's, and shows the agent's notice; from the review step (not
 *   while submitting) it returns to the form, focus on Review. Never submits.
 *   The draft version it carries becomes the one shown.
 * - `review`: the form step's values, trimmed, become the reviewed ones when
 *   each keeps the attendee rules (the ones Submit's server keeps,
 *   domain/attendee-rules.ts); otherwise the form stays, each broken rule is
 *   said next to its field, and focus goes to the first such field.
 * - `back`, `submitting`, `refused`, `registered`: the review step's buttons and Submit's answer.
 */
export function registerReducer(state: RegisterState, action: RegisterAction): RegisterState {
  const { step } = state;
  switch (action.type) {
    case 'person-typed':
      return {
        ...state,
        values: { ...state.values, [action.field]: action.value },
        problems: withoutProblem(state.problems, action.field),
        sources: { ...state.sources, [action.field]: action.value === '' ? null : 'person' },
      };
    case 'agent-filled': {
      const filled = agentFilled(state, action.values);
      return action.draft ? { ...filled, draft: action.draft } : filled;
    }
    case 'review':
      if (step.kind !== 'form') return state;
      {
        const problems = fieldProblems(state.values);
        const first = FIELDS.find((field) => problems[field] !== undefined);
        if (first !== undefined) return { ...state, problems, focus: { target: first } };
      }
      return {
        ...state,
        problems: {},
        step: { kind: 'review', reviewed: trimmed(state.values), submitting: false, error: null },
        focus: { target: 'review-heading' },
      };
    case 'back':
      if (step.kind !== 'review' || step.submitting) return state;
      return { ...state, step: { kind: 'form' }, focus: { target: 'name' } };
    case 'submitting':
      if (step.kind !== 'review') return state;
      return { ...state, step: { ...step, submitting: true, error: null } };
    case 'refused':
      if (step.kind !== 'review') return state;
      return { ...state, step: { ...step, submitting: false, error: action.message }, focus: { target: 'error' } };
    case 'registered':
      return { ...state, step: { kind: 'registered', eventTitle: action.eventTitle }, focus: { target: 'success' } };
  }
}

function agentFilled(state: RegisterState, given: Partial<AttendeeValues>): RegisterState {
  const values = { ...state.values };
  const sources = { ...state.sources };
  let filled = false;
  for (const field of FIELDS) {
    const value = given[field];
    if (value === undefined || value === '' || state.sources[field] === 'person') continue;
    values[field] = value;
    sources[field] = 'agent';
    filled = true;
  }
  if (!filled) return state;
  const leavesReview = state.step.kind === 'review' && !state.step.submitting;
  return {
    ...state,
    values,
    sources,
    preparedByAgent: true,
    step: leavesReview ? { kind: 'form' } : state.step,
    focus: state.step.kind === 'registered' ? state.focus : { target: 'review-button' },
  };
}

/** Each field's broken attendee rule, in the person's words; empty when none is broken. */
function fieldProblems(values: AttendeeValues): Partial<Record<AttendeeField, string>> {
  const problems: Partial<Record<AttendeeField, string>> = {};
  for (const field of FIELDS) {
    const problem = attendeeFieldProblem(field, values[field]);
    if (problem !== null) problems[field] = problem;
  }
  return problems;
}

function withoutProblem(problems: Partial<Record<AttendeeField, string>>, field: AttendeeField): Partial<Record<AttendeeField, string>> {
  if (problems[field] === undefined) return problems;
  const { [field]: _cleared, ...rest } = problems;
  return rest;
}

function trimmed(values: AttendeeValues): AttendeeValues {
  return { name: values.name.trim(), email: values.email.trim() };
}
