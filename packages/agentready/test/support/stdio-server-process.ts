/**
 * @module A process serving a catalog of one read tool over stdio with
 * `serveMcpOverStdio`, for tests of the stdio surface as a client's child
 * process. Run as `node --import tsx stdio-server-process.ts`, with an IPC
 * channel: the message "close" calls the connection's `close()`, then the
 * channel is let go, so only stdin could keep the process up.
 */
import { pino } from 'pino';
import { z } from 'zod';
import { defineCatalog, defineTool } from '../../src/contract/index.ts';
import { serveMcpOverStdio } from '../../src/mcp/index.ts';
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
const catalog = defineCatalog([echoText]);
const pipeline = createInvocationPipeline({
  catalog: withHandlers(catalog, { echo_text: async ({ text }) => ({ ok: true, data: { text } }) }),
  stateVersionOf: async () => 0,
  audit: { record: async () => undefined },
  logger: pino({ level: 'silent' }),
});

const connection = serveMcpOverStdio({
  serverInfo: { name: 'echo', version: '1.0.0' },
  catalog,
  pipeline,
  principal: async () => null,
  onError: (error) => process.stderr.write(`${error.message}\n`),
});

process.on('message', function closeOnRequest(message) {
  if (message === 'close') void connection.close().then(() => process.disconnect());
});
