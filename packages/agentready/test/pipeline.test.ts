import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool, multilineText } from '../src/contract/index.ts';
import { createCallDrain, createInvocationPipeline, type AuditEvidence, type CallDrain } from '../src/runtime/index.ts';
import { summarizeInput } from '../src/runtime/input-summary.ts';
import type { Principal } from '../src/contract/index.ts';
import { type CatalogHandlers, withHandlers } from './support/catalog-handlers.ts';

const findThing = defineTool({
  name: 'find_thing',
  title: 'Find thing',
  description: 'Finds a thing.',
  effect: 'read',
  input: z.object({ id: z.string() }),
  output: z.object({ thing: z.object({ id: z.string(), label: z.string() }) }),
});
const keepThing = defineTool({
  name: 'keep_thing',
  title: 'Keep thing',
  description: 'Keeps a thing.',
  effect: 'write',
  input: z.object({ id: z.string(), email: z.email() }),
  output: z.object({ kept: z.boolean() }),
});
const catalog = defineCatalog([findThing, keepThing]);
const principal: Principal = { id: 'internal-7', kind: 'session', ref: 'p-ref' };

type Operations = CatalogHandlers<typeof findThing | typeof keepThing>;

function build(operations: Operations, faults: { stateVersion?: boolean; audit?: boolean } = {}, drain?: CallDrain) {
  const evidence: AuditEvidence[] = [];
  const pipeline = createInvocationPipeline({
    catalog: withHandlers(catalog, operations),
    stateVersionOf: async (who) => {
      if (faults.stateVersion) throw new Error('database is down');
      return who ? 4 : 0;
    },
    audit: {
      record: async (record) => {
        if (faults.audit) throw new Error('audit table is gone');
        evidence.push(record);
      },
    },
    logger: pino({ level: 'silent' }),
    ...(drain !== undefined && { drain }),
  });
  return { pipeline, evidence };
}

describe('invocation pipeline', () => {
  it('projects the output through its allowlist, so internal fields never reach the result', async () => {
    const { pipeline } = build({
      find_thing: async ({ id }) => ({
        ok: true,
        data: { thing: { id, label: 'Thing', rowId: 42, ownerEmail: 'owner@example.com' } as { id: string; label: string } },
        guidance: { availableActions: ['keep_thing'] },
      }),
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    const result = await pipeline.invoke({ tool: 'find_thing', input: { id: 't-1' }, principal, surface: 'webmcp' });
    expect(result).toEqual({
      ok: true,
      code: 'SUCCESS',
      data: { thing: { id: 't-1', label: 'Thing' } },
      guidance: { availableActions: ['keep_thing'], requiresHumanConfirmation: false },
      uiUpdated: false,
      stateVersion: 4,
    });
  });

  it('answers a write without a principal UNAUTHENTICATED and never runs it', async () => {
    let ran = false;
    const { pipeline, evidence } = build({
      find_thing: async () => ({ ok: true, data: { thing: { id: 'a', label: 'A' } } }),
      keep_thing: async () => {
        ran = true;
        return { ok: true, data: { kept: true } };
      },
    });
    const result = await pipeline.invoke({ tool: 'keep_thing', input: { id: 'a', email: 'a@example.com' }, principal: null, surface: 'mcp' });
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', retryable: false });
    expect(ran).toBe(false);
    expect(evidence[0]).toMatchObject({ tool: 'keep_thing', authorization: 'denied', outcomeCode: 'UNAUTHENTICATED' });
  });

  it('turns a thrown error into TEMPORARY_FAILURE without its message or stack', async () => {
    const { pipeline } = build({
      find_thing: async () => {
        throw new Error('SELECT * FROM secret_table WHERE owner = 7');
      },
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    const result = await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'webmcp' });
    expect(result).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(JSON.stringify(result)).not.toMatch(/SELECT|secret_table|at .*\.ts/);
  });

  it('answers an unknown tool NOT_FOUND and bad input INVALID_INPUT with the field', async () => {
    const { pipeline } = build({
      find_thing: async () => ({ ok: true, data: { thing: { id: 'a', label: 'A' } } }),
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    expect(await pipeline.invoke({ tool: 'submit_thing', input: {}, principal, surface: 'webmcp' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await pipeline.invoke({ tool: 'find_thing', input: { id: 'a', as_admin: true }, principal, surface: 'webmcp' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: 'as_admin',
    });
  });

  it('writes one audit record per call, with the e-mail redacted and the principal as an opaque ref', async () => {
    const { pipeline, evidence } = build({
      find_thing: async () => ({ ok: true, data: { thing: { id: 'a', label: 'A' } } }),
      keep_thing: async ({ id }) => ({ ok: true, data: { kept: true }, evidence: { resultingIds: [id] } }),
    });
    await pipeline.invoke({ tool: 'keep_thing', input: { id: 'thing-1', email: 'person@example.com' }, principal, surface: 'webmcp' });
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({
      tool: 'keep_thing',
      surface: 'webmcp',
      principalRef: 'p-ref',
      authorization: 'allowed',
      outcomeCode: 'SUCCESS',
      resultingIds: ['thing-1'],
      inputSummary: { id: 'thing-1', email: '[redacted]' },
    });
    expect(JSON.stringify(evidence)).not.toContain('person@example.com');
    expect(JSON.stringify(evidence)).not.toContain('internal-7');
  });

  it('records a call its surface refused, with the refusal as outcome, and runs nothing', async () => {
    let ran = false;
    const { pipeline, evidence } = build({
      find_thing: async () => {
        ran = true;
        return { ok: true, data: { thing: { id: 'a', label: 'A' } } };
      },
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    const refused = await pipeline.recordRefusal(
      { tool: 'find_thing', input: ['a'], principal: async () => principal, surface: 'mcp' },
      { code: 'INVALID_INPUT', message: 'The arguments must be an object.' },
    );
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
    await pipeline.recordRefusal(
      {
        tool: '',
        input: {},
        principal: async () => {
          throw new Error('token store down');
        },
        surface: 'mcp',
      },
      { code: 'INVALID_INPUT', message: 'No tool name.' },
    );
    expect(ran).toBe(false);
    expect(evidence.map((record) => [record.tool, record.surface, record.principalRef, record.outcomeCode, record.inputSummary])).toEqual([
      ['find_thing', 'mcp', 'p-ref', 'INVALID_INPUT', ['a']],
      ['[invalid tool name]', 'mcp', null, 'INVALID_INPUT', {}],
    ]);
  });

  it('drops availableActions that are not in the catalog', async () => {
    const { pipeline } = build({
      find_thing: async () => ({
        ok: true,
        data: { thing: { id: 'a', label: 'A' } },
        guidance: { availableActions: ['keep_thing', 'delete_everything' as 'keep_thing'] },
      }),
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    const result = await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'webmcp' });
    expect(result.ok && result.guidance.availableActions).toEqual(['keep_thing']);
  });

  it('answers INTERNAL_ERROR, not retryable, when an operation returns data its output schema rejects', async () => {
    const { pipeline, evidence } = build({
      find_thing: async () => ({ ok: true, data: { thing: { id: 7 } } as unknown as { thing: { id: string; label: string } } }),
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    expect(await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'webmcp' })).toMatchObject({
      ok: false,
      code: 'INTERNAL_ERROR',
      retryable: false,
    });
    expect(evidence.map((record) => [record.tool, record.outcomeCode])).toEqual([['find_thing', 'INTERNAL_ERROR']]);
  });

  it("answers JavaScript's own programming errors INTERNAL_ERROR, and a driver's subclass of one, or fetch's network failure, TEMPORARY_FAILURE", async () => {
    class DriverTypeError extends TypeError {}
    const thrown: unknown[] = [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new RangeError('Invalid array length'),
      new ReferenceError('thing is not defined'),
      new SyntaxError('Unexpected token < in JSON at position 0'),
      new URIError('URI malformed'),
      new EvalError('eval is off'),
      new DriverTypeError('invalid connection string'),
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:443') }),
      new Error('connection refused'),
      'a string',
    ];
    let next = 0;
    const { pipeline } = build({
      find_thing: async () => {
        throw thrown[next++];
      },
      keep_thing: async () => ({ ok: true, data: { kept: true } }),
    });
    const answers: Array<[string, boolean]> = [];
    for (const _ of thrown) {
      const result = await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'webmcp' });
      answers.push([result.code, !result.ok && result.retryable]);
    }
    expect(answers).toEqual([...Array.from({ length: 6 }, () => ['INTERNAL_ERROR', false]), ...Array.from({ length: 4 }, () => ['TEMPORARY_FAILURE', true])]);
  });

  it('still answers, and still leaves evidence, when the state version cannot be read', async () => {
    const { pipeline, evidence } = build(
      {
        find_thing: async () => ({ ok: true, data: { thing: { id: 'a', label: 'A' } } }),
        keep_thing: async () => ({ ok: true, data: { kept: true } }),
      },
      { stateVersion: true },
    );
    // The write happened: it is reported as done, not as a failure to retry.
    expect(await pipeline.invoke({ tool: 'keep_thing', input: { id: 'a', email: 'a@example.com' }, principal, surface: 'webmcp' })).toMatchObject({
      ok: true,
      data: { kept: true },
      stateVersion: 0,
    });
    expect(await pipeline.invoke({ tool: 'find_thing', input: {}, principal, surface: 'webmcp' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(evidence.map((record) => record.outcomeCode)).toEqual(['SUCCESS', 'INVALID_INPUT']);
  });

  it('still answers when audit evidence cannot be written', async () => {
    const { pipeline } = build(
      {
        find_thing: async () => ({ ok: true, data: { thing: { id: 'a', label: 'A' } } }),
        keep_thing: async () => ({ ok: true, data: { kept: true } }),
      },
      { audit: true },
    );
    expect(await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'webmcp' })).toMatchObject({ ok: true });
  });

  it('refuses what its authorize hook refuses, before the operation runs', async () => {
    let ran = false;
    const evidence: AuditEvidence[] = [];
    const pipeline = createInvocationPipeline({
      catalog: withHandlers(catalog, {
        find_thing: async () => {
          ran = true;
          return { ok: true, data: { thing: { id: 'a', label: 'A' } } };
        },
        keep_thing: async () => ({ ok: true, data: { kept: true } }),
      }),
      stateVersionOf: async () => 1,
      audit: { record: async (record) => void evidence.push(record) },
      logger: pino({ level: 'silent' }),
      authorize: (tool) => (tool.name === 'find_thing' ? { code: 'FORBIDDEN', message: 'Not for you.' } : null),
    });
    expect(await pipeline.invoke({ tool: 'find_thing', input: { id: 'a' }, principal, surface: 'mcp' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(ran).toBe(false);
    expect(evidence[0]).toMatchObject({ authorization: 'denied', outcomeCode: 'FORBIDDEN' });
  });
});

describe('the text rule of every tool input', () => {
  const noteThings = defineTool({
    name: 'note_things',
    title: 'Note things',
    description: 'Notes things.',
    effect: 'read',
    input: z.object({ id: z.string(), tags: z.array(z.object({ label: z.string() })), notes: z.record(z.string(), z.string()) }),
    output: z.object({ noted: z.boolean() }),
  });

  it('refuses a lone surrogate in any string, at any depth, naming its field, and never runs the tool', async () => {
    let runs = 0;
    const pipeline = createInvocationPipeline({
      catalog: withHandlers(defineCatalog([noteThings]), {
        note_things: async () => {
          runs += 1;
          return { ok: true, data: { noted: true } };
        },
      }),
      stateVersionOf: async () => 0,
      audit: { record: async () => {} },
      logger: pino({ level: 'silent' }),
    });
    const fine = { id: 'a😀', tags: [{ label: 'b' }], notes: { x: 'c' } };
    expect(await pipeline.invoke({ tool: 'note_things', input: fine, principal: null, surface: 'mcp' })).toMatchObject({ ok: true });
    for (const [input, field] of [
      [{ ...fine, id: 'a\uD83D' }, 'id'],
      [{ ...fine, tags: [{ label: 'b' }, { label: '\uDE00b' }] }, 'tags.1.label'],
      [{ ...fine, notes: { x: 'c\uDBFF' } }, 'notes.x'],
    ] as const) {
      expect(await pipeline.invoke({ tool: 'note_things', input, principal: null, surface: 'mcp' })).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        retryable: false,
        field,
        message: `Field "${field}": not valid Unicode text (it holds a lone surrogate).`,
      });
    }
    expect(runs).toBe(1);
  });

  it('refuses control, invisible and direction-changing characters in every string; line breaks and tabs only where the schema marks multilineText', async () => {
    const writeNote = defineTool({
      name: 'write_note',
      title: 'Write note',
      description: 'Writes a note.',
      effect: 'read',
      input: z.object({ title: z.string(), body: multilineText(z.string().max(500)).optional(), tags: z.array(z.string()).optional() }),
      output: z.object({ written: z.boolean() }),
    });
    const pipeline = createInvocationPipeline({
      catalog: withHandlers(defineCatalog([writeNote]), { write_note: async () => ({ ok: true, data: { written: true } }) }),
      stateVersionOf: async () => 0,
      audit: { record: async () => {} },
      logger: pino({ level: 'silent' }),
    });
    const call = (input: Record<string, unknown>) => pipeline.invoke({ tool: 'write_note', input, principal: null, surface: 'mcp' });
    expect(await call({ title: 'Tea 🍵 مرحبا', body: 'First line.\n\tSecond line.\r\n', tags: ['👩‍💻'] })).toMatchObject({ ok: true });
    for (const [input, field] of [
      [{ title: 'Tea\nparty' }, 'title'],
      [{ title: 'Tea\u0000' }, 'title'],
      [{ title: 'Tea\u009B' }, 'title'],
      [{ title: 'Tea', body: 'Fine.\n\u202Eevil' }, 'body'],
      [{ title: 'Tea', body: 'Fine.\u2066' }, 'body'],
      [{ title: 'Tea', body: 'Fine.\u200B' }, 'body'],
      [{ title: 'Tea', tags: ['ok', 'te\uFEFFa'] }, 'tags.1'],
    ] as const) {
      const answer = await call(input);
      expect(answer).toMatchObject({ ok: false, code: 'INVALID_INPUT', field });
      expect(JSON.stringify(answer)).not.toContain('evil');
    }
  });
});

describe('audit input summary', () => {
  it('keeps IDs and search words, and redacts secrets, contact details and names', () => {
    expect(
      summarizeInput({
        event_id: 'evt-webmcp-intro',
        keyword: '入門 workshop',
        page: 2,
        name: 'Lin',
        email: 'lin@example.com',
        confirmation_token: 'abc',
        api_key: 'k',
        note: 'call me at lin@example.com',
        decision_note: 'Approved for Mei Tan',
        comment: 'ok',
      }),
    ).toEqual({
      event_id: 'evt-webmcp-intro',
      keyword: '入門 workshop',
      page: 2,
      name: '[redacted]',
      email: '[redacted]',
      confirmation_token: '[redacted]',
      api_key: '[redacted]',
      note: '[text:26]',
      // A person's own words may name anyone, however plain they look: only their length is kept.
      decision_note: '[text:20]',
      comment: '[text:2]',
    });
  });

  it('keeps an own "__proto__" key as a key, without touching any prototype', () => {
    const summary = summarizeInput(JSON.parse('{"__proto__":{"keyword":"Rust","isAdmin":true},"keyword":"x"}'));
    expect(JSON.parse(JSON.stringify(summary))).toEqual(JSON.parse('{"__proto__":{"keyword":"Rust","isAdmin":true},"keyword":"x"}'));
    expect(Object.getPrototypeOf(summary)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  });
});

describe('invocation pipeline at shutdown (drain)', () => {
  /** keep_thing waits until the test lets it go, or fails when interrupted. */
  function waitingOperation() {
    let letGo: () => void = () => {};
    let interrupt: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const keep_thing: Operations['keep_thing'] = () =>
      new Promise((resolve, reject) => {
        letGo = () => resolve({ ok: true, data: { kept: true } });
        interrupt = () => reject(new Error('canceling statement due to user request'));
        started();
      });
    return { keep_thing, running, letGo: () => letGo(), interrupt: async () => interrupt() };
  }

  it('refuses new calls once the drain began, with evidence, and waits for the call in flight and its evidence', async () => {
    const drain = createCallDrain();
    const waiting = waitingOperation();
    const find_thing: Operations['find_thing'] = async ({ id }) => ({ ok: true, data: { thing: { id, label: 'Thing' } } });
    const { pipeline, evidence } = build({ find_thing, keep_thing: waiting.keep_thing }, {}, drain);
    const inFlight = pipeline.invoke({ tool: 'keep_thing', input: { id: 't-1', email: 'a@example.org' }, principal, surface: 'mcp' });
    await waiting.running;

    let drained = false;
    const draining = drain.drain({ graceMs: 60_000, interrupt: waiting.interrupt }).then((report) => {
      drained = true;
      return report;
    });
    const refused = await pipeline.invoke({ tool: 'find_thing', input: { id: 't-2' }, principal, surface: 'mcp' });
    expect(refused).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(evidence.map((record) => [record.tool, record.outcomeCode])).toEqual([['find_thing', 'TEMPORARY_FAILURE']]);
    expect(drained).toBe(false);

    waiting.letGo();
    expect(await inFlight).toMatchObject({ ok: true, code: 'SUCCESS' });
    expect(await draining).toEqual({ finishedInGrace: true, abandoned: 0 });
    expect(evidence.map((record) => [record.tool, record.outcomeCode])).toEqual([
      ['find_thing', 'TEMPORARY_FAILURE'],
      ['keep_thing', 'SUCCESS'],
    ]);
  });

  it('interrupts the call still running when the grace period ends: it answers TEMPORARY_FAILURE, saying why, with evidence', async () => {
    const drain = createCallDrain();
    const waiting = waitingOperation();
    const { pipeline, evidence } = build(
      { find_thing: async () => ({ ok: true, data: { thing: { id: 'x', label: 'X' } } }), keep_thing: waiting.keep_thing },
      {},
      drain,
    );
    const inFlight = pipeline.invoke({ tool: 'keep_thing', input: { id: 't-1', email: 'a@example.org' }, principal, surface: 'mcp' });
    await waiting.running;

    expect(await drain.drain({ graceMs: 0, interrupt: waiting.interrupt })).toEqual({ finishedInGrace: false, abandoned: 0 });
    const answer = await inFlight;
    expect(answer).toMatchObject({
      ok: false,
      code: 'TEMPORARY_FAILURE',
      retryable: true,
      message: 'The service is restarting and did not complete this call.',
    });
    expect(JSON.stringify(answer)).not.toContain('canceling');
    expect(evidence.map((record) => [record.tool, record.outcomeCode])).toEqual([['keep_thing', 'TEMPORARY_FAILURE']]);
  });

  it('gives up on a call the interrupt cannot reach once afterInterruptMs has passed, so shutdown ends', async () => {
    const drain = createCallDrain();
    const stuck = drain.admit();
    expect(stuck).not.toBeNull();
    let interrupted = 0;
    const report = await drain.drain({
      graceMs: 0,
      afterInterruptMs: 10,
      interrupt: async () => {
        interrupted += 1;
      },
    });
    expect(report).toEqual({ finishedInGrace: false, abandoned: 1 });
    expect(interrupted).toBe(1);
    stuck!();
  });
});
