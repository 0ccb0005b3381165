/**
 * A page that ships no zod: the tool published as JSON data (`publishTool`),
 * its input checked against that data (`parseJsonInput`), and an envelope
 * read from JSON (`readToolResult`). Each is compared with what zod itself
 * answers on the same values (fast-check), since the server keeps using zod:
 * the page must never refuse what the server accepts, must refuse in the
 * server's words, and must read an envelope exactly as the schema parses it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonInput } from '../src/contract/json-input-validation.ts';
import { z } from 'zod';
import { defineTool, envelopeSchema, ERROR_CODE_LIST, parseToolInput, portableJsonSchema, publishTool, readToolResult } from '../src/contract/index.ts';

const everyRule = defineTool({
  name: 'every_rule',
  title: 'Every rule',
  description: 'Takes one field of each kind a page can check, and one it cannot.',
  effect: 'write',
  input: z
    .object({
      id: z.string().min(1).max(5),
      mail: z.email().max(20).optional(),
      day: z.iso.date().optional(),
      code: z
        .string()
        .regex(/^[A-Z]{2}$/)
        .optional(),
      count: z.number().int().min(1).max(100).optional(),
      big: z.int().optional(),
      ratio: z.number().positive().max(1).optional(),
      step: z.number().positive().min(-3).lt(10).max(20).optional(),
      kind: z.enum(['a', 'b']).optional(),
      fixed: z.literal('x').optional(),
      flag: z.boolean().optional(),
      label: z
        .string()
        .trim()
        .min(1)
        .max(4)
        .refine((text) => !text.includes('!'), { message: 'must not shout.' })
        .optional(),
      backwards: z.string().max(3).min(2).optional(),
    })
    .refine((input) => input.count !== 13, { message: 'count must not be 13.', path: ['count'] }),
  output: z.object({ id: z.string() }),
});

const published = publishTool(everyRule);
const SERVER_CHECKED = ['label', 'backwards'];

/** Values that meet or break each rule: bounds, wrong types, code points past the BMP, lone surrogates. */
const anyValue = fc.oneof(
  fc.constantFrom<unknown>(
    '',
    'a',
    'abcde',
    'abcdef',
    '😀😀😀😀😀',
    '😀😀😀😀😀😀',
    '\uD800',
    '\uD800\uD800\uD800\uD800\uD800\uD800',
    ' ab ',
    'a!',
    '  ',
    'AB',
    'ab',
    'ABC',
    'lin@example.com',
    'lin@example',
    `${'x'.repeat(14)}@ex.com`,
    'not an e-mail but long enough',
    '2027-02-28',
    '2027-02-29',
    '2028-02-29',
    '27-1-1',
    0,
    1,
    13,
    100,
    101,
    1.5,
    -1,
    -5,
    10,
    15,
    25,
    0.5,
    1e300,
    -1e300,
    2 ** 53,
    -(2 ** 53),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    null,
    [],
    {},
    ['a'],
    { id: 'a' },
    'x',
  ),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
);
const FIELDS = ['id', 'mail', 'day', 'code', 'count', 'big', 'ratio', 'step', 'kind', 'fixed', 'flag', 'label', 'backwards'];
const anyInput = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.dictionary(
      fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...FIELDS) }, fc.constantFrom('extra', 'user@example.com', 'x'.repeat(50))),
      anyValue,
      { maxKeys: 5 },
    ),
  },
  { weight: 1, arbitrary: anyValue },
);

function zodIssues(raw: unknown): z.core.$ZodIssue[] {
  const parsed = everyRule.input.safeParse(raw);
  return parsed.success ? [] : parsed.error.issues;
}

describe('publishTool', () => {
  it("publishes the contract's name, words, annotations and input JSON Schema, as JSON data", () => {
    const { $schema: _ignored, ...inputSchema } = portableJsonSchema(everyRule.input, 'input');
    expect(published).toEqual({
      name: 'every_rule',
      title: 'Every rule',
      description: everyRule.description,
      effect: 'write',
      annotations: everyRule.annotations,
      inputSchema,
      serverCheckedFields: SERVER_CHECKED,
    });
    expect(JSON.parse(JSON.stringify(published))).toEqual(published);
  });

  it("publishes a route's own input, strict", () => {
    expect(publishTool(everyRule, z.object({})).inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('refuses an input with rules a page could not check from JSON Schema', () => {
    const { title, description, effect, output } = everyRule;
    const nested = defineTool({ title, description, effect, output, name: 'nested', input: z.object({ where: z.object({ city: z.string() }) }) });
    expect(() => publishTool(nested)).toThrow('The input of nested holds rules a page cannot check: where: type "object"');
    const list = defineTool({ title, description, effect, output, name: 'list', input: z.object({ ids: z.array(z.string()) }) });
    expect(() => publishTool(list)).toThrow('The input of list holds rules a page cannot check: ids: type "array"');
  });

  it('leaves to the server what zod adds to a field beyond JSON Schema: a trim, a refinement, a default, rules out of order', () => {
    const withDefault = defineTool({
      title: everyRule.title,
      description: everyRule.description,
      effect: everyRule.effect,
      output: everyRule.output,
      name: 'with_default',
      input: z.object({ page: z.number().default(1), sort: z.enum(['date']) }),
    });
    expect(publishTool(withDefault).serverCheckedFields).toEqual(['page']);
    expect(published.serverCheckedFields).toEqual(['label', 'backwards']);
  });
});

describe("parseJsonInput, next to the server's parseToolInput on the same values", () => {
  it('accepts what zod accepts, with the same value', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const server = parseToolInput(everyRule.input, raw);
        if (!server.ok) return;
        const page = parseJsonInput(published, raw);
        expect(page.ok).toBe(true);
        // Fields the server trims are handed on as sent; every other field as zod reads it.
        const { label: _label, ...serverValue } = server.value;
        const { label: _pageLabel, ...pageValue } = page.ok ? page.value : {};
        expect(pageValue).toEqual(serverValue);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses only what zod refuses, in its words unless a rule only the server holds is broken too', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const page = parseJsonInput(published, raw);
        const server = parseToolInput(everyRule.input, raw);
        const issues = zodIssues(raw);
        const serverOnly = issues.some((issue) => issue.code === 'custom' || SERVER_CHECKED.includes(String(issue.path[0])));
        if (!page.ok) {
          expect(server.ok).toBe(false);
          if (!serverOnly && !server.ok) expect(page.failure).toEqual(server.failure);
        } else if (!server.ok) {
          // What the page let through, the server refuses for a rule the page does not hold.
          expect(serverOnly).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses an own __proto__ key at any depth, and what is not an object, as the server does', () => {
    for (const raw of [JSON.parse('{"id":"a","__proto__":{"id":"b"}}'), JSON.parse('{"id":"a","flag":[{"__proto__":1}]}'), [], 'a', null, 3]) {
      const page = parseJsonInput(published, raw);
      expect(page.ok).toBe(false);
      expect(page).toEqual(parseToolInput(everyRule.input, raw));
    }
  });
});

/** Envelope-like values: the real branches, then each key broken or dropped, plus extra keys. */
const guidance = fc.record(
  {
    availableActions: fc.oneof(fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), fc.constant([1]), fc.constant('a')),
    currentTarget: fc.oneof(
      fc.record({ kind: fc.string({ maxLength: 3 }), id: fc.string({ maxLength: 3 }) }),
      fc.constant({ kind: 1, id: 'a' }),
      fc.constant({ kind: 'a', id: 'b', extra: 1 }),
    ),
    requiresHumanConfirmation: fc.oneof(fc.boolean(), fc.constant('yes')),
    confirmationUrl: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(5)),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const envelopeLike = fc.record(
  {
    ok: fc.oneof(fc.boolean(), fc.constant('true')),
    code: fc.oneof(fc.constant('SUCCESS'), fc.constantFrom(...ERROR_CODE_LIST), fc.constant('OOPS')),
    data: fc.jsonValue({ maxDepth: 2 }),
    guidance,
    message: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(1)),
    retryable: fc.oneof(fc.boolean(), fc.constant(0)),
    nextAction: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)),
    field: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(false)),
    candidates: fc.oneof(
      fc.array(fc.record({ id: fc.string({ maxLength: 2 }), label: fc.string({ maxLength: 2 }) }), { maxLength: 2 }),
      fc.constant([{ id: 'a' }]),
      fc.constant([{ id: 'a', label: 'A', extra: 1 }]),
    ),
    uiUpdated: fc.oneof(fc.boolean(), fc.constant(null)),
    stateVersion: fc.oneof(fc.nat(), fc.constant(-1), fc.constant(1.5), fc.constant(2 ** 53), fc.constant('3')),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

describe('readToolResult', () => {
  it('reads a value as envelopeSchema(z.unknown()) parses it: the same envelope, or null where zod refuses', () => {
    const schema = envelopeSchema(z.unknown());
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: envelopeLike }, fc.jsonValue({ maxDepth: 2 })), (value) => {
        const parsed = schema.safeParse(value);
        expect(readToolResult(value)).toEqual(parsed.success ? parsed.data : null);
      }),
      { numRuns: 5000 },
    );
  });
});
