/**
 * @module A process serving the progress test catalog (progress-catalog.ts)
 * over stdio with `serveMcpOverStdio`, for the official client's
 * `StdioClientTransport`. Run as `node --import tsx progress-stdio-process.ts`;
 * progress notifications that were not sent are written to stderr.
 */
import { serveMcpOverStdio } from '../../src/mcp/index.ts';
import { progressCatalog, progressPipeline } from './progress-catalog.ts';

serveMcpOverStdio({
  serverInfo: { name: 'progress', version: '1.0.0' },
  catalog: progressCatalog,
  pipeline: progressPipeline(),
  principal: async () => null,
  onError: (error) => process.stderr.write(`${error.message}\n`),
});
