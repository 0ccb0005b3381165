/**
 * @module The route profiles: which of the five approved tools each page puts
 * on `document.modelContext`, with what input, which page-side checks, and how
 * a result is shown (docs/architecture.md, "Adding a tool", step 5).
 *
 * - `/events`: search_events, get_event_details({event_id}) for an ID a search on
 *   this page returned, save_event({event_id}) for the event shown in the panel.
 * - `/events/:id`: get_event_details({}) (the route decides the event),
 *   save_event({event_id}) for the route's event only, prepare_event_registration.
 * - `/events/:id/register`: prepare_event_registration({name?, email?}).
 * - `/registrations`: prepare_registration_cancellation({registration_id?}).
 * - home, `/saved`, `/connect`, `/activity`, and an event page or register page whose event
 *   does not exist: none.
 * - `/signin`, `/signup`, `/account`: none, ever. An agent must never type a
 *   password or change one; these pages are the person's alone.
 *
 * On a page whose person is not signed in the tools stay: the server answers
 * those that need an account UNAUTHENTICATED, with a nextAction asking the
 * person to sign in, and the page shows its sign-in prompt.
 *
 * The tools' contracts come as data (published-tools.ts, computed at build
 * time): the page checks each call's input against the schema it publishes,
 * and the server checks every call against the contract as well.
 */
import type { FailureDetails } from 'agentready';
import { publishedPageTool, type PageTool } from 'agentready/webmcp';
import {
  isRoute,
  type EventControls,
  type EventsControls,
  type RegisterControls,
  type RegistrationsControls,
  type RouteRenderedArgs,
} from './page-controls.ts';
import { publishedTools } from './published-tools.ts';

/** What the profiles need from the app besides the page's controls. */
export type RouteToolsContext = {
  /**
   * Moves to `path` and resolves with the registration page's controls once it
   * is rendered (used when preparing a registration from the details page).
   */
  openRegistrationForm(eventId: string): Promise<RegisterControls>;
};

const {
  search_events: searchEvents,
  get_event_details: getEventDetails,
  save_event: saveEvent,
  prepare_event_registration: prepareEventRegistration,
  prepare_registration_cancellation: prepareRegistrationCancellation,
} = publishedTools;

/**
 * The page tools of one rendered route.
 *
 * @param args the route and its page's controls, as the router hands them over.
 * @returns the tools to register for this visit; an empty list where the page offers none.
 */
export function toolsForRoute(args: RouteRenderedArgs, context: RouteToolsContext): PageTool[] {
  if (isRoute(args, 'events')) return eventsPageTools(args[1]);
  // A page about an event that does not exist has nothing for a tool to act on.
  if (isRoute(args, 'event')) return args[1].eventMissing ? [] : eventPageTools(args[1], context);
  if (isRoute(args, 'register')) return args[1].eventMissing ? [] : registerPageTools(args[1]);
  if (isRoute(args, 'registrations')) return registrationsPageTools(args[1]);
  return [];
}

function eventsPageTools(controls: EventsControls): PageTool[] {
  return [
    publishedPageTool({
      tool: searchEvents,
      description: `${searchEvents.description} The search form and the result list on this page show what the call found.`,
      async apply(result, filters) {
        await controls.showSearch({ ...filters, page: result.data.page }, result.data);
        return true;
      },
    }),
    publishedPageTool({
      tool: getEventDetails,
      description: `${getEventDetails.description} On this page, only an ID that search_events (or the person's search) returned here is accepted; the event opens in the details panel.`,
      check: ({ event_id }) => (controls.searchedEventIds().has(event_id) ? null : notFromThisSearch()),
      async apply(result) {
        await controls.showEventDetails(result.data.event);
        return true;
      },
    }),
    publishedPageTool({
      tool: saveEvent,
      description: `${saveEvent.description} On this page, only the event shown in the details panel (opened with get_event_details) can be saved.`,
      check: ({ event_id }) => (controls.shownEventId() === event_id ? null : notTheShownEvent(controls.shownEventId())),
      async apply(result) {
        await controls.markSaved(result.data.event.id);
        return true;
      },
    }),
  ];
}

function eventPageTools(controls: EventControls, context: RouteToolsContext): PageTool[] {
  return [
    publishedPageTool({
      tool: getEventDetails,
      routeDecides: ['event_id'],
      description: `${getEventDetails.description} On this page the event is the one on screen: send an empty object {}.`,
      toServerInput: () => ({ event_id: controls.eventId }),
      async apply(result) {
        await controls.showEventDetails(result.data.event);
        return true;
      },
    }),
    publishedPageTool({
      tool: saveEvent,
      description: `${saveEvent.description} On this page, event_id must be the ID of the event on screen.`,
      check: ({ event_id }) => (event_id === controls.eventId ? null : notTheShownEvent(controls.eventId)),
      async apply(result) {
        await controls.markSaved();
        return true;
      },
    }),
    registrationFormTool(controls.eventId, 'Opens the registration form for the event on screen and fills it with the name and e-mail given.', () =>
      context.openRegistrationForm(controls.eventId),
    ),
  ];
}

function registerPageTools(controls: RegisterControls): PageTool[] {
  return [
    registrationFormTool(
      controls.eventId,
      'Fills the registration form on screen with the name and e-mail given (a field left out keeps what the form shows). ' +
        'What the person typed in the form is theirs: a different value for a field they typed in is refused with CONFLICT (field names it) and nothing changes; ask the person.',
      () => controls,
      controls,
    ),
  ];
}

/**
 * prepare_event_registration where the route decides the event: the server checks
 * the event can take this person and stores the draft, then the page fills the
 * form it gets from `form`. When the form is already on screen (`shown`), a
 * value for a field the person typed in is refused before anything is sent,
 * and a field left out is sent as the agent's value the form shows (so the
 * stored draft, which a left-out field would clear, matches the screen). The
 * result's `data.form` describes the form as it is on screen after the call.
 */
function registrationFormTool(
  eventId: string,
  what: string,
  form: () => RegisterControls | Promise<RegisterControls>,
  shown: RegisterControls | null = null,
): PageTool {
  return publishedPageTool({
    tool: prepareEventRegistration,
    routeDecides: ['event_id'],
    description:
      `${what} Nothing is sent: the person reviews the form and presses Submit. Never claim the person is registered. ` +
      'data.form describes the form on screen after the call: the name shown, and whether an e-mail is filled in (never the e-mail).',
    check: (input) => (shown === null ? null : personTypedConflict(shown.formFields(), input)),
    toServerInput: (input) => ({ ...agentValuesShown(shown), ...input, event_id: eventId }),
    async apply(result, input) {
      const controls = await form();
      // The e-mail never comes back from the server (results carry no addresses): the page keeps what the agent gave.
      await controls.fillForm(formValues(result.data.form.name, input.email), result.data.draft);
      return { uiUpdated: true, data: { ...result.data, form: formOnScreen(controls.formFields()) } };
    },
  });
}

type ShownFields = ReturnType<RegisterControls['formFields']>;
type FormInput = { name?: string | undefined; email?: string | undefined };

const FIELD_WORDS = { name: 'name', email: 'e-mail' } as const;

/** CONFLICT when the agent gives a field the person typed in a different value; null otherwise. */
function personTypedConflict(fields: ShownFields, input: FormInput): FailureDetails | null {
  const clashing = (['name', 'email'] as const).filter((field) => {
    const given = input[field];
    return given !== undefined && fields[field].typedByPerson && given.trim() !== fields[field].value.trim();
  });
  const [first] = clashing;
  if (first === undefined) return null;
  const words = clashing.map((field) => FIELD_WORDS[field]).join(' and ');
  return {
    code: 'CONFLICT',
    field: first,
    message: `The person typed their own ${words} in the form; the page left the form as it is.`,
    nextAction: `Ask the person which ${words} to use. To fill only the other fields, call again without ${clashing.join(' or ')}.`,
  };
}

/** The values the agent put in the form shown (fields the person typed in, and empty ones, left out). */
function agentValuesShown(shown: RegisterControls | null): FormInput {
  if (shown === null) return {};
  const fields = shown.formFields();
  const values: FormInput = {};
  for (const field of ['name', 'email'] as const) {
    if (!fields[field].typedByPerson && fields[field].value !== '') values[field] = fields[field].value;
  }
  return values;
}

/** The form as the result tells the agent: the name shown (null when empty) and whether an e-mail is filled in. */
function formOnScreen(fields: ShownFields): { name: string | null; emailProvided: boolean } {
  const name = fields.name.value.trim();
  return { name: name === '' ? null : name, emailProvided: fields.email.value.trim() !== '' };
}

function registrationsPageTools(controls: RegistrationsControls): PageTool[] {
  return [
    publishedPageTool({
      tool: prepareRegistrationCancellation,
      description: `${prepareRegistrationCancellation.description} The dialog opens on this page.`,
      async check({ registration_id }) {
        const deciding = controls.cancelDialogTarget();
        if (deciding !== null && deciding !== registration_id) {
          // The person is reading one dialog; swapping what it cancels under their cursor is not the agent's call.
          return {
            code: 'CONFLICT',
            message: 'The person has a cancellation dialog open on screen.',
            nextAction: 'Wait until the person closes the dialog, then call again.',
          };
        }
        // Signed out, the page lists nothing: the server's UNAUTHENTICATED (sign in first) is the answer, not a mismatch.
        if (!controls.signedIn) return null;
        const shown = await controls.ready();
        if (registration_id === undefined || shown.some((registration) => registration.id === registration_id)) return null;
        return {
          code: 'CURRENT_TARGET_MISMATCH',
          field: 'registration_id',
          message: 'That registration is not one of those listed on this page.',
          nextAction: 'Call again without registration_id to see the candidates, or use an ID from them.',
        };
      },
      async apply(result) {
        return await controls.openCancelDialog(result.data.registration.id);
      },
    }),
  ];
}

function formValues(name: string | null, email: string | undefined): { name?: string; email?: string } {
  const values: { name?: string; email?: string } = {};
  if (name !== null) values.name = name;
  if (email !== undefined) values.email = email;
  return values;
}

function notFromThisSearch(): FailureDetails {
  return {
    code: 'CURRENT_TARGET_MISMATCH',
    field: 'event_id',
    message: 'That event ID was not returned by a search on this page.',
    nextAction: 'Call search_events first and use an ID from its results.',
  };
}

function notTheShownEvent(shownId: string | null): FailureDetails {
  return {
    code: 'CURRENT_TARGET_MISMATCH',
    field: 'event_id',
    message: shownId ? 'Only the event shown on this page can be saved here.' : 'No event is shown on this page yet.',
    nextAction: shownId ? `Use the ID of the event on screen: ${shownId}.` : 'Call get_event_details with an ID from search_events first.',
  };
}
