/**
 * @module The public shapes the Events tools answer with: allowlists of fields
 * (seed 000: "just enough": what answers the question and what the next step
 * needs). Anything else an operation returns is dropped by these schemas.
 */
import { z } from 'zod';

const isoWithOffset = z.string().describe('ISO 8601 date-time with its UTC offset, e.g. 2027-01-23T10:00:00+08:00');

/** One event in a list. */
export const eventSummarySchema = z.object({
  id: z.string().describe('Opaque event ID, e.g. "evt-webmcp-intro"; pass it to other tools unchanged.'),
  title: z.string(),
  startsAt: isoWithOffset,
  endsAt: isoWithOffset,
  location: z.string().describe('City ID, e.g. "taipei".'),
  venue: z.string(),
  price: z.enum(['free', 'paid']),
  fee: z.object({ amount: z.number(), currency: z.literal('TWD') }).nullable(),
  level: z.enum(['beginner', 'intermediate', 'advanced']),
  remainingCapacity: z.number().int().nonnegative(),
  registrationDeadline: isoWithOffset,
  state: z.enum(['open', 'full', 'closed']).describe('open: places left and before the deadline; full: no places; closed: deadline passed.'),
});

/** One event with everything a person needs to decide. */
export const eventDetailSchema = eventSummarySchema.extend({
  summary: z.string(),
  capacity: z.number().int().nonnegative(),
  saved: z.boolean().describe('Whether the current person saved it.'),
  registered: z.boolean().describe('Whether the current person holds an active registration for it.'),
});

/** The few event facts repeated where an action names its event. */
export const eventReferenceSchema = z.object({
  id: z.string(),
  title: z.string(),
  startsAt: isoWithOffset,
});
