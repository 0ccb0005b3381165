/**
 * @module `defineEventsTool`: the toolkit's `defineTool` for the Events
 * site, whose handlers get the domain services (`call.app`); and the words
 * every Events tool answers a domain refusal with.
 */
import { defineToolFor, type FailureDetails } from 'agentready';
import { z } from 'zod';
import type { DomainFailure } from '../domain/domain-result.ts';
import type { EventsServices } from '../domain/events-services.ts';

/** Declares one Events tool: contract, handler (given the domain services) and result text, in one place. */
export const defineEventsTool = defineToolFor<EventsServices>();

/** An event's ID as the tools take it. */
export const eventIdInput = z.string().min(1).max(80).describe('An event ID returned by search_events, e.g. "evt-webmcp-intro".');

/** A handler's refusal. */
export type Refusal = { ok: false; failure: FailureDetails };

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

/** A domain refusal as a handler's failure, with the next action an agent can take (by its reason, else its code). */
export function refusal(domain: DomainFailure): Refusal {
  const details: FailureDetails = { code: domain.code, message: domain.message };
  const nextAction = domain.nextAction ?? (domain.reason ? NEXT_ACTION_BY_REASON[domain.reason] : NEXT_ACTION[domain.code]);
  if (nextAction) details.nextAction = nextAction;
  if (domain.field) details.field = domain.field;
  return { ok: false, failure: details };
}

/** Failure details as a handler's refusal. */
export function failure(details: FailureDetails): Refusal {
  return { ok: false, failure: details };
}

/** The pipeline refuses principal-less calls to non-read tools before a handler runs; this keeps the types honest. */
export function noPrincipal(): Refusal {
  return failure({ code: 'UNAUTHENTICATED', message: 'This tool needs to know who is calling.' });
}

/** `amount` and its noun, plural unless one: "1 place", "3 events". */
export function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}
