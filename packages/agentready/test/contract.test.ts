import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asReplayed } from '../src/contract/envelope.ts';
import { isRetryable } from '../src/contract/errors.ts';
import {
  defineCatalog,
  defineTool,
  envelopeSchema,
  ERROR_CODE_LIST,
  fail,
  parseToolInput,
  readToolResult,
  succeed,
  ToolContractError,
  untrustedText,
} from '../src/contract/index.ts';

const lookup = defineTool({
  name: 'look_up',
  title: 'Look up',
  description: 'Looks one thing up.',
  effect: 'read',
  untrustedContent: true,
  input: z.object({ id: z.string().max(10), contact: z.email().optional() }),
  output: z.object({ thing: z.object({ id: z.string(), label: z.string() }) }),
});

describe('error codes', () => {
  it('is the closed set of docs/architecture.md, and only the transient ones are retryable', () => {
    expect(ERROR_CODE_LIST).toEqual([
      'INVALID_INPUT',
      'NOT_FOUND',
      'SELECTION_REQUIRED',
      'CURRENT_TARGET_MISMATCH',
      'STALE_TOOL',
      'CONFLICT',
      'CONFIRMATION_REQUIRED',
      'UNAUTHENTICATED',
      'SESSION_EXPIRED',
      'FORBIDDEN',
      'IDEMPOTENCY_KEY_REUSED',
      'IN_PROGRESS',
      'RATE_LIMITED',
      'TEMPORARY_FAILURE',
      'INTERNAL_ERROR',
      'BLOCKED',
    ]);
    expect(ERROR_CODE_LIST.filter(isRetryable)).toEqual(['IN_PROGRESS', 'RATE_LIMITED', 'TEMPORARY_FAILURE']);
  });
});

describe('envelope', () => {
  it('builds a success with default guidance and a failure whose retryable comes from its code', () => {
    const ok = succeed({ n: 1 }, { availableActions: ['look_up'] }, { stateVersion: 3 });
    expect(ok).toEqual({
      ok: true,
      code: 'SUCCESS',
      data: { n: 1 },
      guidance: { availableActions: ['look_up'], requiresHumanConfirmation: false },
      uiUpdated: false,
      stateVersion: 3,
    });
    const busy = fail({ code: 'IN_PROGRESS', message: 'Still running.' }, 3);
    expect(busy).toMatchObject({ ok: false, code: 'IN_PROGRESS', retryable: true, uiUpdated: false, stateVersion: 3 });
    expect(fail({ code: 'CONFLICT', message: 'Full.' }, 0).retryable).toBe(false);
  });

  it('has one schema that accepts both branches and rejects a success without data shape', () => {
    const schema = envelopeSchema(lookup.output);
    expect(schema.safeParse(succeed({ thing: { id: 'a', label: 'A' } }, {}, { stateVersion: 0 })).success).toBe(true);
    expect(schema.safeParse(fail({ code: 'NOT_FOUND', message: 'No such thing.', field: 'id' }, 1)).success).toBe(true);
    expect(schema.safeParse(succeed({ other: 1 }, {}, { stateVersion: 0 })).success).toBe(false);
    expect(schema.safeParse({ ok: false, code: 'OOPS', message: 'x', retryable: false, uiUpdated: false, stateVersion: 0 }).success).toBe(false);
  });

  it('says when an answer is a replay, in the schema and when read back as JSON, and IN_PROGRESS keeps when to retry', () => {
    const first = succeed({ thing: { id: 'a', label: 'A' } }, {}, { stateVersion: 1 });
    const replay = asReplayed(first, 4);
    expect(replay).toEqual({ ...first, stateVersion: 4, replayed: true });
    expect(first).not.toHaveProperty('replayed');
    const schema = envelopeSchema(lookup.output);
    expect(schema.safeParse(replay).success).toBe(true);
    expect(schema.safeParse({ ...first, replayed: false }).success).toBe(false);
    expect(readToolResult(JSON.parse(JSON.stringify(replay)))).toEqual(replay);
    expect(readToolResult({ ...first, replayed: 'yes' })).toBeNull();
    const refusal = asReplayed(fail({ code: 'CONFLICT', message: 'Full.' }, 1), 2);
    expect(readToolResult(JSON.parse(JSON.stringify(refusal)))).toMatchObject({ code: 'CONFLICT', replayed: true, stateVersion: 2 });
    expect(fail({ code: 'IN_PROGRESS', message: 'Still running.', retryAfterSeconds: 2.2 }, 0).retryAfterSeconds).toBe(3);
  });

  it('keeps what changed on a CONFLICT only, in the schema and when read back as JSON', () => {
    const changes = [
      { field: 'price', was: 4999, now: 5499 },
      { field: 'availability', was: 'available', now: 'discontinued' },
    ];
    const conflict = fail({ code: 'CONFLICT', message: 'The price changed.', changes }, 2);
    expect(conflict.changes).toEqual(changes);
    expect(fail({ code: 'NOT_FOUND', message: 'Gone.', changes }, 2)).not.toHaveProperty('changes');
    expect(envelopeSchema(lookup.output).safeParse(conflict).success).toBe(true);
    expect(readToolResult(JSON.parse(JSON.stringify(conflict)))).toEqual(conflict);
    expect(readToolResult({ ...conflict, changes: { field: 'price' } })).toBeNull();
    expect(readToolResult({ ...conflict, changes: [{ field: 'price', was: { amount: 1 }, now: 2 }] })).toBeNull();
    expect(readToolResult({ ...conflict, changes: [{ was: 1, now: 2 }] })).toBeNull();
  });
});

describe('defineTool', () => {
  it('derives annotations from the effect class', () => {
    expect(lookup.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, untrustedContentHint: true });
    const write = defineTool({ ...specOf('keep_it'), effect: 'write' });
    expect(write.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, untrustedContentHint: false });
    const commit = defineTool({ ...commitSpecOf('pay_it'), destructive: true });
    expect(commit.annotations.destructiveHint).toBe(true);
  });

  it('makes the input strict: an unknown key is INVALID_INPUT naming that key', () => {
    const result = parseToolInput(lookup.input, { id: 'a', extra: 1 });
    expect(result).toMatchObject({ ok: false, failure: { code: 'INVALID_INPUT', field: 'extra' } });
  });

  it('refuses an own "__proto__" key as an unknown field at any depth, even where the schema takes any key', () => {
    const open = z.strictObject({ filters: z.record(z.string(), z.string()), tags: z.array(z.object({ label: z.string() })) });
    expect(parseToolInput(open, JSON.parse('{"__proto__":{"id":"x"},"filters":{},"tags":[]}'))).toEqual({
      ok: false,
      failure: {
        code: 'INVALID_INPUT',
        field: '__proto__',
        message: 'Unknown field "__proto__": it is not accepted here.',
        nextAction: 'Remove the field and call again with only the fields the input schema lists.',
      },
    });
    expect(parseToolInput(open, JSON.parse('{"filters":{"__proto__":"x"},"tags":[]}'))).toMatchObject({ ok: false, failure: { field: 'filters.__proto__' } });
    expect(parseToolInput(open, JSON.parse('{"filters":{},"tags":[{"label":"a"},{"label":"b","__proto__":{}}]}'))).toMatchObject({
      ok: false,
      failure: { field: 'tags.1.__proto__' },
    });
    // The same words with no such key: the schema takes them.
    expect(parseToolInput(open, { filters: { proto: 'x' }, tags: [{ label: 'a' }] })).toMatchObject({ ok: true });
    // An in-page caller may hand over a cyclic object: the check ends, and the schema answers.
    const cyclic: Record<string, unknown> = { filters: {}, tags: [] };
    cyclic['self'] = cyclic;
    expect(parseToolInput(open, cyclic)).toMatchObject({ ok: false, failure: { field: 'self' } });
  });

  it('refuses a name that is not snake_case', () => {
    expect(() => defineTool({ ...specOf('Look-Up') })).toThrow(/snake_case/);
  });

  it('refuses, at start-up, a commit tool whose input lacks the confirmation token or the idempotency key', () => {
    const bare = { ...specOf('pay_it'), effect: 'commit' as const };
    expect(() => defineTool(bare)).toThrow(ToolContractError);
    expect(() => defineTool(bare)).toThrow(
      'Commit tool "pay_it" must take confirmation_token and idempotency_key in its input, or declare confirm so that the site asks the person.',
    );
    expect(() => defineTool({ ...bare, input: z.object({ confirmation_token: z.string() }) })).toThrow('must take idempotency_key in its input');
    expect(() => defineTool({ ...bare, input: z.object({ idempotency_key: z.string() }) })).toThrow('must take confirmation_token in its input');
    expect(defineTool(commitSpecOf('pay_it')).effect).toBe('commit');
  });

  it('refuses a read tool that declares a side effect, and destructive on anything but a commit', () => {
    expect(() => defineTool({ ...specOf('look_it_up'), destructive: true })).toThrow('Read tool "look_it_up" declares a side effect');
    expect(() => defineTool({ ...specOf('keep_it'), effect: 'write', destructive: true })).toThrow('only a commit tool may be');
    expect(defineTool({ ...specOf('keep_it'), effect: 'write', destructive: false }).annotations.destructiveHint).toBe(false);
  });
});

describe('parseToolInput', () => {
  it('names the field of a wrong type, a missing field and an over-long string', () => {
    expect(parseToolInput(lookup.input, { id: 5 })).toMatchObject({ ok: false, failure: { field: 'id' } });
    expect(parseToolInput(lookup.input, {})).toMatchObject({ ok: false, failure: { field: 'id', message: expect.stringMatching(/required/) } });
    expect(parseToolInput(lookup.input, { id: 'x'.repeat(11) })).toMatchObject({ ok: false, failure: { field: 'id' } });
  });

  it('says "required" only for a field that is absent, and "expected <type>" for a value of the wrong type', () => {
    const nested = z.object({
      keyword: z.string().optional(),
      page: z.number().int().optional(),
      event_id: z.string(),
      where: z.object({ city: z.string() }).optional(),
    });
    const messageOf = (raw: unknown) => {
      const result = parseToolInput(nested, raw);
      if (result.ok) throw new Error('expected a refusal');
      return result.failure;
    };
    expect(messageOf({ event_id: 'e', keyword: 123 })).toMatchObject({ field: 'keyword', message: 'Field "keyword": expected string.' });
    expect(messageOf({ event_id: 'e', page: '2' })).toMatchObject({ field: 'page', message: 'Field "page": expected number.' });
    expect(messageOf({ event_id: ['x'] })).toMatchObject({ field: 'event_id', message: 'Field "event_id": expected string.' });
    expect(messageOf({ event_id: null })).toMatchObject({ field: 'event_id', message: 'Field "event_id": expected string.' });
    expect(messageOf({})).toMatchObject({ field: 'event_id', message: 'Field "event_id": this field is required.' });
    expect(messageOf({ event_id: 'e', where: {} })).toMatchObject({ field: 'where.city', message: 'Field "where.city": this field is required.' });
    expect(messageOf({ event_id: 'e', where: { city: 7 } })).toMatchObject({ field: 'where.city', message: 'Field "where.city": expected string.' });
    expect(messageOf({ event_id: 'e', page: 2.5 }).message).not.toMatch(/required/);
  });

  it("words a refinement with the schema's own message", () => {
    const range = z
      .object({ date_from: z.string().optional(), date_to: z.string().optional() })
      .refine((value) => !value.date_from || !value.date_to || value.date_from <= value.date_to, {
        message: 'date_to must not be before date_from.',
        path: ['date_to'],
      });
    expect(parseToolInput(range, { date_from: '2027-03-01', date_to: '2027-02-01' })).toEqual({
      ok: false,
      failure: {
        code: 'INVALID_INPUT',
        field: 'date_to',
        message: 'Field "date_to": date_to must not be before date_from.',
        nextAction: 'Correct the field and call again.',
      },
    });
  });

  it("reports the schema's own numeric bound, not the safe-integer limit", () => {
    const paged = z.object({ page: z.number().int().min(1).max(1000) });
    const huge = parseToolInput(paged, { page: 1e308 });
    expect(huge).toMatchObject({ ok: false, failure: { field: 'page', message: expect.stringContaining('at most 1000') } });
    expect(JSON.stringify(huge)).not.toContain('9007199254740991');
    const hugeNegative = parseToolInput(paged, { page: -1e308 });
    expect(hugeNegative).toMatchObject({ ok: false, failure: { field: 'page', message: expect.stringContaining('at least 1') } });
  });

  it('never repeats the value it refused', () => {
    const result = parseToolInput(lookup.input, { id: 'a', contact: 'not-an-address@' });
    expect(result).toMatchObject({ ok: false, failure: { field: 'contact' } });
    expect(JSON.stringify(result)).not.toContain('not-an-address');
    const typed = parseToolInput(lookup.input, { id: ['secret-looking-value'] });
    expect(typed).toMatchObject({ ok: false, failure: { field: 'id' } });
    expect(JSON.stringify(typed)).not.toContain('secret-looking-value');
  });

  it('refuses input that is not an object', () => {
    for (const raw of [null, 'id', [1], 3]) {
      expect(parseToolInput(lookup.input, raw)).toMatchObject({ ok: false, failure: { code: 'INVALID_INPUT' } });
    }
  });
});

describe('defineCatalog', () => {
  it('refuses a duplicate name and, unless allowed, a commit tool', () => {
    expect(() => defineCatalog([lookup, lookup])).toThrow(/twice/);
    const commit = defineTool(commitSpecOf('pay_it'));
    expect(() => defineCatalog([lookup, commit])).toThrow(/commit/);
    expect(defineCatalog([lookup, commit], { allowCommitTools: true }).names).toEqual(['look_up', 'pay_it']);
  });

  it('is frozen', () => {
    const catalog = defineCatalog([lookup]);
    expect(Object.isFrozen(catalog)).toBe(true);
    expect(Object.isFrozen(catalog.names)).toBe(true);
    expect(catalog.has('look_up')).toBe(true);
    expect(catalog.has('submit_it')).toBe(false);
  });
});

/** A commit tool's spec that keeps the rules: a confirmation token and an idempotency key in its input. */
function commitSpecOf(name: string) {
  return {
    ...specOf(name),
    effect: 'commit' as const,
    input: z.object({ confirmation_token: z.string(), idempotency_key: z.string() }),
  };
}

function specOf(name: string) {
  return {
    name,
    title: name,
    description: 'A tool for tests.',
    effect: 'read' as const,
    input: z.object({}),
    output: z.object({ done: z.boolean() }),
  };
}

describe('untrustedText', () => {
  it('lists marked output fields as untrustedFields wherever they are, and sets untrustedContentHint', () => {
    const place = z.object({ id: z.string(), name: untrustedText(z.string()).describe('as its owner wrote it'), city: z.string() });
    const tool = defineTool({
      name: 'find_places',
      title: 'Find places',
      description: 'Finds places by city, with their names as their owners wrote them.',
      effect: 'read',
      input: z.object({ city: z.string() }),
      output: z.object({
        places: z.array(place),
        featured: place
          .pick({ id: true, name: true })
          .extend({ note: untrustedText(z.string()).nullable().optional() })
          .nullable(),
        count: z.number(),
      }),
    });
    expect(tool.untrustedFields).toEqual(['places[].name', 'featured.name', 'featured.note']);
    expect(tool.annotations.untrustedContentHint).toBe(true);
    const plain = defineTool({
      name: 'plain_tool',
      title: 'Plain',
      description: 'Answers an ID.',
      effect: 'read',
      input: z.object({}),
      output: z.object({ id: z.string() }),
    });
    expect(plain.untrustedFields).toEqual([]);
    expect(plain.annotations.untrustedContentHint).toBe(false);
  });
});
