/**
 * @module The server operations of the five Events tools: each turns validated
 * tool input into a call of the domain services and words the answer for an
 * agent (data, guidance, next action). The invocation pipeline around them
 * validates, authorizes, projects through the output allowlist and audits.
 */
import type { FailureDetails } from 'agentready';
import type { OperationMap } from 'agentready/runtime';
import type { DomainFailure } from '../domain/domain-result.ts';
import type { EventDetail } from '../domain/event-shapes.ts';
import type { EventsServices } from '../domain/events-services.ts';
import { accountRowIdOf, signInRequired } from '../domain/principal-owners.ts';
import { getEventDetails, prepareEventRegistration, prepareRegistrationCancellation, saveEvent, searchEvents, type eventsCatalog } from './catalog.ts';

type EventsTool = (typeof eventsCatalog.tools)[number];
type Refusal = { ok: false; failure: FailureDetails };

/**
 * Builds the operation of every tool in the Events catalog.
 *
 * Operations never register or cancel: the prepare tools check that the step
 * could succeed and say where the person finishes (`confirmationUrl`, a page
 * that opens prepared: `/events/:id/register` with the registration draft this
 * call stored filled in, `/registrations?cancel=:registration_id` with the
 * confirmation dialog open). The attendee's e-mail goes into the draft, never
 * into a result.
 *
 * @param services the domain, bound to a database and a clock.
 * @returns one operation per catalog name; domain refusals come back as
 *   failures (NOT_FOUND, CONFLICT, INVALID_INPUT, SELECTION_REQUIRED).
 */
export function createEventsOperations(services: EventsServices): OperationMap<EventsTool> {
  return {
    async search_events(input) {
      const found = await services.searchEvents(input);
      if (!found.ok) return refusal(found);
      return {
        ok: true,
        data: found.value,
        guidance: { availableActions: found.value.events.length > 0 ? [getEventDetails.name, saveEvent.name] : [searchEvents.name] },
      };
    },

    async get_event_details(input, { principal }) {
      const found = await services.getEventDetail(principal, input.event_id);
      if (!found.ok) return refusal(found);
      const event = found.value;
      return { ok: true, data: { event }, guidance: { availableActions: actionsFor(event), currentTarget: { kind: 'event', id: event.id } } };
    },

    async save_event(input, { principal }) {
      if (!principal) return noPrincipal();
      const saved = await services.saveEvent(principal, input.event_id);
      if (!saved.ok) return refusal(saved);
      // What may follow depends on the event's state and the person's registration, as on its details.
      const detail = await services.getEventDetail(principal, saved.value.event.id);
      return {
        ok: true,
        data: saved.value,
        guidance: { availableActions: detail.ok ? actionsFor(detail.value) : [], currentTarget: { kind: 'event', id: saved.value.event.id } },
        evidence: { resultingIds: saved.value.alreadySaved ? [] : [saved.value.event.id] },
      };
    },

    async prepare_event_registration(input, { principal }) {
      if (!principal) return noPrincipal();
      const checked = await services.checkRegistrable(principal, input.event_id);
      if (!checked.ok) return refusal(checked);
      const event = checked.value;
      // The page at confirmationUrl opens with this filled in, also when the agent is not in that page (MCP).
      const drafted = await services.saveRegistrationDraft(principal, event.id, { name: input.name, email: input.email });
      if (!drafted.ok) return refusal(drafted);
      return {
        ok: true,
        data: {
          event: { id: event.id, title: event.title, startsAt: event.startsAt, remainingCapacity: event.remainingCapacity },
          form: { name: input.name ?? null, emailProvided: input.email !== undefined },
          draft: { id: drafted.value.draft.id, version: drafted.value.draft.version },
          status: 'awaiting_person',
        },
        evidence: { draft: drafted.value.draft },
        guidance: {
          availableActions: [],
          currentTarget: { kind: 'event', id: event.id },
          requiresHumanConfirmation: true,
          confirmationUrl: `/events/${encodeURIComponent(event.id)}/register`,
        },
      };
    },

    async prepare_registration_cancellation(input, { principal }) {
      if (!principal) return noPrincipal();
      // A visitor who is not signed in has no registrations: the answer is "sign in", not "no such registration".
      if (accountRowIdOf(principal) === null) return refusal(signInRequired('cancel a registration'));
      const active = await services.listActiveRegistrations(principal);
      let chosen = active[0];
      if (input.registration_id !== undefined) {
        chosen = active.find((registration) => registration.id === input.registration_id);
        if (!chosen) {
          return failure({
            code: 'NOT_FOUND',
            field: 'registration_id',
            message: 'You have no active registration with that ID.',
            nextAction: 'Call again without registration_id to see your active registrations.',
          });
        }
      } else if (active.length > 1) {
        return failure({
          code: 'SELECTION_REQUIRED',
          message: `You have ${active.length} active registrations; say which one to cancel.`,
          nextAction: 'Ask the person which registration to cancel, then call again with its registration_id.',
          candidates: active.map((registration) => ({
            id: registration.id,
            label: `${registration.event.title} (${registration.event.startsAt})`,
          })),
        });
      }
      if (!chosen) {
        return failure({
          code: 'NOT_FOUND',
          message: 'You have no active registrations to cancel.',
          nextAction: 'Nothing to cancel. Use search_events to find events instead.',
        });
      }
      const { event } = chosen;
      return {
        ok: true,
        data: {
          registration: { id: chosen.id, event: { id: event.id, title: event.title, startsAt: event.startsAt }, registeredAt: chosen.registeredAt },
          consequence:
            // The title in JSON quotes: whatever the organiser wrote, it cannot close the quotes and read as the site's words.
            `If the person confirms, the registration for ${JSON.stringify(event.title)} (${event.startsAt}) is cancelled and its place is released; ` +
            'to attend they would have to register again, if places are left.',
        },
        guidance: {
          availableActions: [],
          currentTarget: { kind: 'registration', id: chosen.id },
          requiresHumanConfirmation: true,
          confirmationUrl: cancellationConfirmationUrl(chosen.id),
        },
      };
    },
  };
}

/** The registrations page with the confirmation dialog for this registration open (registrations-page.ts). */
function cancellationConfirmationUrl(registrationId: string): string {
  return `/registrations?cancel=${encodeURIComponent(registrationId)}`;
}

/**
 * The tools that can succeed next for this event and person: save it unless
 * saved, prepare a registration while it is open and they are not registered,
 * prepare the cancellation when they are.
 */
function actionsFor(event: EventDetail): EventsTool['name'][] {
  const actions: EventsTool['name'][] = [];
  if (!event.saved) actions.push(saveEvent.name);
  if (event.state === 'open' && !event.registered) actions.push(prepareEventRegistration.name);
  if (event.registered) actions.push(prepareRegistrationCancellation.name);
  return actions;
}

const NEXT_ACTION: Partial<Record<DomainFailure['code'], string>> = {
  NOT_FOUND: 'Use an ID returned by search_events.',
  INVALID_INPUT: 'Correct the field and call again.',
};

const NEXT_ACTION_BY_REASON: Record<NonNullable<DomainFailure['reason']>, string> = {
  full: 'This event has no places left; tell the person and suggest searching for another event.',
  closed: 'Registration has closed; tell the person and suggest searching for another event.',
  already_registered: 'The person is already registered for this event; nothing more to prepare.',
  not_active: 'This registration is no longer active; nothing to cancel.',
};

function refusal(domain: DomainFailure): Refusal {
  const details: FailureDetails = { code: domain.code, message: domain.message };
  const nextAction = domain.nextAction ?? (domain.reason ? NEXT_ACTION_BY_REASON[domain.reason] : NEXT_ACTION[domain.code]);
  if (nextAction) details.nextAction = nextAction;
  if (domain.field) details.field = domain.field;
  return { ok: false, failure: details };
}

function failure(details: FailureDetails): Refusal {
  return { ok: false, failure: details };
}

// The pipeline refuses principal-less calls to non-read tools before they get here; this keeps the types honest.
function noPrincipal(): Refusal {
  return failure({ code: 'UNAUTHENTICATED', message: 'This tool needs to know who is calling.' });
}
