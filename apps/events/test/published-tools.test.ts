/**
 * The tools as the pages publish them (src/web/published-tools.ts, shipped to
 * the browser as data): the page checks a call's input without zod, and the
 * server checks it with the contract's zod schema. Next to each other on the
 * same values (fast-check), the page never refuses what the server accepts,
 * refuses in the server's words, and lets through only what breaks a rule the
 * page leaves to the server (trimmed one-line text, a date range in order).
 */
import { parseToolInput, type ToolContract } from 'agentready';
import { publishedPageTool } from 'agentready/webmcp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getEventDetails } from '../src/tools/get-event-details.ts';
import { prepareEventRegistration } from '../src/tools/prepare-event-registration.ts';
import { prepareRegistrationCancellation } from '../src/tools/prepare-registration-cancellation.ts';
import { saveEvent } from '../src/tools/save-event.ts';
import { searchEvents } from '../src/tools/search-events.ts';
import { publishedTools } from '../src/web/published-tools.ts';

/**
 * Each page tool as a route offers it (the published tool, less the fields the
 * route fills itself) and the zod schema the server would check the same input with.
 */
const CASES: Array<[string, ToolContract, string[], z.ZodType]> = [
  ['search_events', searchEvents, [], searchEvents.input],
  ['get_event_details', getEventDetails, [], getEventDetails.input],
  ['get_event_details on /events/:id', getEventDetails, ['event_id'], z.object({}).strict()],
  ['save_event', saveEvent, [], saveEvent.input],
  [
    'prepare_event_registration on /events/:id/register',
    prepareEventRegistration,
    ['event_id'],
    prepareEventRegistration.input.omit({ event_id: true }).strict(),
  ],
  ['prepare_registration_cancellation', prepareRegistrationCancellation, [], prepareRegistrationCancellation.input],
];

const pageToolOf = (contract: ToolContract, routeDecides: string[]) =>
  publishedPageTool({ tool: publishedTools[contract.name as keyof typeof publishedTools], routeDecides });

const KEYS = ['keyword', 'location', 'price', 'level', 'date_from', 'date_to', 'page', 'event_id', 'name', 'email', 'registration_id', 'sort_by'];
const anyValue = fc.oneof(
  fc.constantFrom<unknown>(
    'evt-webmcp-intro',
    '',
    'x'.repeat(80),
    'x'.repeat(81),
    '😀'.repeat(80),
    ' WebMCP ',
    'Ada\u2028Lovelace',
    'Ada\u{E0041}',
    '工作坊',
    ' '.repeat(3) + 'x'.repeat(100),
    'taipei',
    'tokyo',
    'free',
    'cheap',
    'beginner',
    '2027-03-01',
    '2027-02-29',
    '2027-3-1',
    'Lin Mei',
    'lin.mei@example.com',
    'lin@example',
    `${'x'.repeat(250)}@ex.com`,
    1,
    2,
    1000,
    1001,
    0,
    1.5,
    1e300,
    null,
    true,
    [],
    {},
  ),
  fc.string({ maxLength: 6 }),
  fc.integer(),
);
const anyInput = fc.oneof({ weight: 9, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: 4 }) }, { weight: 1, arbitrary: anyValue });

describe('the tools the pages publish', () => {
  it("are the catalog's tools, named and worded as the catalog declares them", () => {
    for (const [, contract] of CASES) {
      const tool = publishedTools[contract.name as keyof typeof publishedTools];
      expect({ name: tool.name, title: tool.title, description: tool.description, annotations: tool.annotations }).toEqual({
        name: contract.name,
        title: contract.title,
        description: contract.description,
        annotations: contract.annotations,
      });
    }
  });

  for (const [key, contract, routeDecides, schema] of CASES) {
    it(`${key}: the page refuses only what the server refuses, in its words, and accepts what it accepts`, () => {
      const pageTool = pageToolOf(contract, routeDecides);
      const tool = pageTool.published;
      fc.assert(
        fc.property(anyInput, (raw) => {
          const page = pageTool.parseInput(raw);
          const server = parseToolInput(schema, raw);
          const parsed = schema.safeParse(raw);
          const issues = parsed.success ? [] : parsed.error.issues;
          const serverOnly = issues.some((issue) => issue.code === 'custom' || tool.serverCheckedFields.includes(String(issue.path[0])));
          if (server.ok) expect(page.ok).toBe(true);
          if (!page.ok) {
            expect(server.ok).toBe(false);
            if (!server.ok && !serverOnly) expect(page.failure).toEqual(server.failure);
          } else if (!server.ok) {
            expect(serverOnly).toBe(true);
          }
        }),
        { numRuns: 2000 },
      );
    });
  }
});
