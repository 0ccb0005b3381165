/**
 * @module A process serving a catalog of one read tool over stdio with
 * `serveMcpOverStdio`, for tests of the stdio surface as a client's child
 * process. Run as `node --import tsx stdio-server-process.ts`, with an IPC
 * channel: the message "close" calls the connection's `close()`, then the
 * channel is let go, so only stdin could keep the process up.
 */
import { serveMcpOverStdio } from '../../src/mcp/index.ts';
import { echoCatalog as catalog, echoPipeline as pipeline } from './echo-tool-pipeline.ts';

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
