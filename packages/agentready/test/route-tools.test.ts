/**
 * The WebMCP adapter's rules, with an in-memory stand-in for the browser's model
 * context (the browser tests in apps/events drive Chromium's real one).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, fail, publishTool, succeed, TRACE_ID_META_KEY, withTraceId, type ToolResult, type WithTraceId } from '../src/contract/index.ts';
import { createRouteToolRegistry, publishedPageTool, type ModelContext } from '../src/webmcp/index.ts';
import type { WebMcpTool } from '../src/webmcp/model-context.ts';

const showThing = defineTool({
  name: 'show_thing',
  title: 'Show thing',
  description: 'Shows one thing by its ID.',
  effect: 'read',
  input: z.object({ thing_id: z.string() }),
  output: z.object({ id: z.string() }),
});
const fillThing = defineTool({
  name: 'fill_thing',
  title: 'Fill thing',
  description: 'Fills the form of a thing.',
  effect: 'prepare',
  input: z.object({ label: z.string().optional() }),
  output: z.object({ form: z.object({ label: z.string().nullable() }) }),
});
const keepThing = defineTool({
  name: 'keep_thing',
  title: 'Keep thing',
  description: 'Keeps one thing.',
  effect: 'write',
  input: z.object({ thing_id: z.string() }),
  output: z.object({ id: z.string() }),
});

/** The tools as a page gets them: published where zod runs, checked in the page without it. */
const published = { showThing: publishTool(showThing), fillThing: publishTool(fillThing), keepThing: publishTool(keepThing) };

/** Registered tools by name, dropped when their signal aborts, as the browser does. */
function inMemoryContext() {
  const tools = new Map<string, WebMcpTool>();
  const context: ModelContext = {
    async registerTool(tool, options) {
      if (tools.has(tool.name)) throw new Error('Duplicate tool name');
      tools.set(tool.name, tool);
      options?.signal?.addEventListener('abort', () => tools.delete(tool.name));
    },
  };
  return { context, tools };
}

function setUp(answer: (tool: string, input: unknown) => Promise<WithTraceId<ToolResult<unknown>>>) {
  const { context, tools } = inMemoryContext();
  const sent: Array<{ tool: string; input: unknown }> = [];
  const registry = createRouteToolRegistry({
    modelContext: context,
    callServer: (tool, input) => {
      sent.push({ tool, input });
      return answer(tool, input);
    },
    stateVersion: () => 3,
  });
  return { registry, tools, sent };
}

describe('createRouteToolRegistry', () => {
  it("registers a route's tools and removes them when the next route is entered, with no duplicate error", async () => {
    const { registry, tools } = setUp(async () => succeed({ id: 'a' }, {}, { stateVersion: 3 }));
    for (let visit = 0; visit < 3; visit += 1) {
      await registry.enter('/things/a', [publishedPageTool({ tool: published.showThing }), publishedPageTool({ tool: published.keepThing })]).registered;
      expect([...tools.keys()]).toEqual(['show_thing', 'keep_thing']);
      await registry.enter('/elsewhere', []).registered;
      expect([...tools.keys()]).toEqual([]);
    }
  });

  it('refuses bad input and failed page checks without calling the server', async () => {
    const { registry, tools, sent } = setUp(async () => succeed({ id: 'a' }, {}, { stateVersion: 3 }));
    await registry.enter('/things/a', [
      publishedPageTool({
        tool: published.keepThing,
        check: ({ thing_id }) => (thing_id === 'a' ? null : { code: 'CURRENT_TARGET_MISMATCH', message: 'Not the thing on screen.', field: 'thing_id' }),
      }),
    ]).registered;
    const keep = tools.get('keep_thing')!;
    expect(await keep.execute({ thing_id: 'a', extra: 1 })).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'extra', stateVersion: 3 });
    expect(await keep.execute({ thing_id: 'b' })).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH', uiUpdated: false });
    expect(sent).toEqual([]);
  });

  it('answers STALE_TOOL from an instance whose route was left, and sends nothing', async () => {
    const { registry, tools, sent } = setUp(async () => succeed({ id: 'a' }, {}, { stateVersion: 3 }));
    await registry.enter('/things/a', [publishedPageTool({ tool: published.keepThing })]).registered;
    const kept = tools.get('keep_thing')!;
    registry.enter('/elsewhere', []);
    expect(await kept.execute({ thing_id: 'a' })).toMatchObject({ ok: false, code: 'STALE_TOOL', retryable: false });
    expect(sent).toEqual([]);
  });

  it('when the route is left while the server answers: a read is STALE_TOOL, a write reports what it did without showing it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { registry, tools } = setUp(async () => {
      await held;
      return succeed({ id: 'a' }, {}, { stateVersion: 4 });
    });
    let shown = 0;
    const apply = () => {
      shown += 1;
      return true;
    };
    await registry.enter('/things/a', [publishedPageTool({ tool: published.showThing, apply }), publishedPageTool({ tool: published.keepThing, apply })])
      .registered;
    const read = tools.get('show_thing')!.execute({ thing_id: 'a' });
    const write = tools.get('keep_thing')!.execute({ thing_id: 'a' });
    registry.enter('/elsewhere', []);
    release();
    expect(await read).toMatchObject({ ok: false, code: 'STALE_TOOL' });
    expect(await write).toMatchObject({ ok: true, data: { id: 'a' }, uiUpdated: false, stateVersion: 4 });
    expect(shown).toBe(0);
  });

  it('reports uiUpdated only when the page showed the result, and drops a field the route supplied', async () => {
    const { registry, tools } = setUp(async (tool) =>
      tool === 'show_thing' ? succeed({ id: 'a' }, {}, { stateVersion: 3 }) : fail({ code: 'CONFLICT', message: 'Already kept.', field: 'thing_id' }, 3),
    );
    await registry.enter('/things/a', [
      publishedPageTool({ tool: published.showThing, routeDecides: ['thing_id'], toServerInput: () => ({ thing_id: 'a' }), apply: () => true }),
      publishedPageTool({ tool: published.keepThing, routeDecides: ['thing_id'], toServerInput: () => ({ thing_id: 'a' }) }),
    ]).registered;
    expect(await tools.get('show_thing')!.execute({})).toMatchObject({ ok: true, uiUpdated: true });
    const refused = (await tools.get('keep_thing')!.execute({})) as Record<string, unknown>;
    expect(refused).toMatchObject({ ok: false, code: 'CONFLICT', message: 'Already kept.' });
    expect(refused).not.toHaveProperty('field');
  });

  it("answers the data the page's apply says is on screen, in the server's shape; other data is a page error, and the server's is answered", async () => {
    const { context, tools } = inMemoryContext();
    const pageErrors: string[] = [];
    const registry = createRouteToolRegistry({
      modelContext: context,
      // The server describes what it was sent: no label.
      callServer: async () => succeed({ form: { label: null } }, {}, { stateVersion: 3 }),
      stateVersion: () => 3,
      onPageError: (tool) => pageErrors.push(tool),
    });
    let onScreen: unknown = { form: { label: 'typed by the person' } };
    await registry.enter('/things/a/form', [
      publishedPageTool({ tool: published.fillThing, apply: () => ({ uiUpdated: true, data: onScreen as { form: { label: string | null } } }) }),
    ]).registered;
    const fill = tools.get('fill_thing')!;

    expect(await fill.execute({})).toMatchObject({ ok: true, uiUpdated: true, data: { form: { label: 'typed by the person' } } });
    expect(pageErrors).toEqual([]);

    onScreen = { form: { label: { text: 'not a label' } } };
    expect(await fill.execute({})).toMatchObject({ ok: true, uiUpdated: true, data: { form: { label: null } } });
    onScreen = { form: { label: 'typed' }, internal: 'not in the server result' };
    const extra = (await fill.execute({})) as Record<string, unknown>;
    expect(extra).toMatchObject({ ok: true, uiUpdated: true, data: { form: { label: null } } });
    expect(extra['data']).not.toHaveProperty('internal');
    expect(pageErrors).toEqual(['fill_thing', 'fill_thing']);
  });
  it('keeps the trace id the server named in every result it answered, shown, refused or left; a call the page refused names none', async () => {
    let release: () => void = () => {};
    let held: Promise<void> = Promise.resolve();
    const { registry, tools } = setUp(async (tool) => {
      await held;
      return tool === 'keep_thing'
        ? withTraceId(fail({ code: 'CONFLICT', message: 'Already kept.', field: 'thing_id' }, 3), 'trace-of-keep')
        : withTraceId(succeed({ id: 'a' }, {}, { stateVersion: 3 }), 'trace-of-show');
    });
    const onScreen = { id: 'a' };
    await registry.enter('/things/a', [
      publishedPageTool({ tool: published.showThing, apply: () => ({ uiUpdated: true, data: onScreen }) }),
      publishedPageTool({ tool: published.keepThing, routeDecides: ['thing_id'], toServerInput: () => ({ thing_id: 'a' }) }),
    ]).registered;
    const traceOf = async (name: string, input: Record<string, unknown>) =>
      ((await tools.get(name)!.execute(input)) as { _meta?: Record<string, unknown> })._meta?.[TRACE_ID_META_KEY];
    expect(await traceOf('show_thing', { thing_id: 'a' })).toBe('trace-of-show');
    expect(await traceOf('keep_thing', {})).toBe('trace-of-keep');
    expect(await traceOf('show_thing', { thing_id: 'a', extra: 1 })).toBeUndefined();
    held = new Promise<void>((resolve) => (release = resolve));
    const left = tools.get('show_thing')!.execute({ thing_id: 'a' });
    registry.enter('/elsewhere', []);
    release();
    expect(await left).toMatchObject({ ok: false, code: 'STALE_TOOL', _meta: { [TRACE_ID_META_KEY]: 'trace-of-show' } });
  });
});
