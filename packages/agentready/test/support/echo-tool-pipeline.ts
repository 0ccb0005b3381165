/**
 * @module A catalog of one read tool, `echo_text`, and a pipeline that runs
 * it for anyone and keeps no evidence: what the tests' server processes
 * (stdio-server-process.ts, lazy-sdk-process.ts) serve when only the
 * transport is under test. Imports nothing of the MCP SDK.
 */
import { pino } from 'pino';
import { z } from 'zod';
import { defineCatalog, defineTool } from '../../src/contract/index.ts';
import { createInvocationPipeline } from '../../src/runtime/index.ts';
import { withHandlers } from './catalog-handlers.ts';

const echoText = defineTool({
  name: 'echo_text',
  title: 'Echo a text',
  description: 'Answers the text it is given, unchanged, so a test can see a call go through.',
  effect: 'read',
  input: z.object({ text: z.string() }),
  output: z.object({ text: z.string() }),
});

/** The catalog: `echo_text({ text })` answers `{ text }`. */
export const echoCatalog = defineCatalog([echoText]);

/** The pipeline over {@link echoCatalog}: state version 0, no audit record kept, a silent log. */
export const echoPipeline = createInvocationPipeline({
  catalog: withHandlers(echoCatalog, { echo_text: async ({ text }) => ({ ok: true, data: { text } }) }),
  stateVersionOf: async () => 0,
  audit: { record: async () => undefined },
  logger: pino({ level: 'silent' }),
});
